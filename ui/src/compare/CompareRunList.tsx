import { Link } from 'react-router';
import type { RunDetails } from '@server/api/schemas/runs';
import { pathOf } from '../run/url-path';

/** A compared run and its colour. */
export interface ColoredRun {
  run: RunDetails;
  color: string;
}

/** The compared runs: colour swatch (as in the charts), name linking to the run, id and status. */
export function CompareRunList({ runs }: { runs: ColoredRun[] }) {
  return (
    <ul className="compare-runs" aria-label="Compared runs">
      {runs.map(({ run, color }) => (
        <li key={run.id} className="compare-run">
          <span className="swatch" style={{ background: color }} aria-hidden="true" />
          <Link to={pathOf(run.url)}>{run.name}</Link>
          <span className="muted mono">{run.displayId}</span>
          <span className={`status status-${run.status}`}>{run.status}</span>
        </li>
      ))}
    </ul>
  );
}
