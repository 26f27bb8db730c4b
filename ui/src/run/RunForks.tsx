import { Link } from 'react-router';
import { useRunForks } from '../api/fork-queries';
import { pathOf } from './url-path';
import './run-forks.css';

/**
 * The "Forks" fact of a run's header: each run forked from this one, as a link showing its
 * name, its display id and the step it forked at. Nothing while loading or when there are none.
 */
export function RunForks({ runId, projectName }: { runId: number; projectName: string }) {
  const forks = useRunForks(runId, projectName);
  if (forks.isPending) return null;
  if (forks.isError) {
    return (
      <div>
        <dt>Forks</dt>
        <dd className="muted">not available: {forks.error.message}</dd>
      </div>
    );
  }
  const { runs, total } = forks.data;
  if (runs.length === 0) return null;
  return (
    <div>
      <dt>Forks</dt>
      <dd>
        <ul className="fork-list" aria-label="Forks of this run">
          {runs.map((fork) => (
            <li key={fork.id}>
              <Link to={pathOf(fork.url)}>{fork.name}</Link> <span className="muted mono">{fork.displayId}</span>
              {fork.forkStep !== null && <span className="muted"> at step {fork.forkStep.toLocaleString()}</span>}
            </li>
          ))}
          {total > runs.length && <li className="muted">and {(total - runs.length).toLocaleString()} more</li>}
        </ul>
      </dd>
    </div>
  );
}
