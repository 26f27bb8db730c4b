import type { RunDetails } from '@server/api/schemas/runs';
import { formatTime } from '../format';
import { ForkParent } from './ForkParent';
import { LiveDuration } from './LiveDuration';
import { RunForks } from './RunForks';
import { RunNameEditor } from './RunNameEditor';
import { StopRunButton } from './StopRunButton';
import { TagEditor } from './TagEditor';

/**
 * The top of a run's page: name, status, display id, start, duration (ticking while
 * RUNNING), the run it was forked from, the runs forked from it, its editable tags and name,
 * and Stop on a RUNNING run.
 */
export function RunHeader({ run }: { run: RunDetails }) {
  const running = run.status === 'RUNNING';
  return (
    <header className="run-header">
      <div className="run-title">
        <RunNameEditor runId={run.id} name={run.name} />
        <span className="visually-hidden">Status:</span>
        <span className={`status status-${run.status}`}>{run.status}</span>
        {running && <StopRunButton runId={run.id} runName={run.name} />}
      </div>
      <dl className="run-facts">
        <div>
          <dt>ID</dt>
          <dd className="mono">{run.displayId}</dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd>
            <time dateTime={run.createdAt}>{formatTime(run.createdAt)}</time>
          </dd>
        </div>
        {run.createdBy && (
          <div>
            <dt>Created by</dt>
            <dd>{run.createdBy.name}</dd>
          </div>
        )}
        <div>
          <dt>Duration</dt>
          <dd>
            <LiveDuration start={run.createdAt} end={run.statusUpdated} running={running} />
          </dd>
        </div>
        {run.forkedFromRunId !== null && (
          <div>
            <dt>Forked from</dt>
            <dd>
              <ForkParent parentId={run.forkedFromRunId} forkStep={run.forkStep} />
            </dd>
          </div>
        )}
        <RunForks runId={run.id} projectName={run.projectName} />
        {run.externalId && (
          <div>
            <dt>External id</dt>
            <dd className="mono">{run.externalId}</dd>
          </div>
        )}
      </dl>
      <TagEditor runId={run.id} tags={run.tags} />
    </header>
  );
}
