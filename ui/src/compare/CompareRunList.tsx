import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { RunDetails } from '@server/api/schemas/runs';
import { swatchCss, type RunStyle } from '../charts/run-colors';
import { pathOf } from '../run/url-path';

/** A compared run and its look in the charts (run-colors.ts). */
export interface ColoredRun {
  run: RunDetails;
  style: RunStyle;
}

/** Up to this many runs are listed at once; more fold into one line with a toggle. */
const OPEN_UP_TO = 8;

/** A phone's width, as the stylesheets' breakpoint: the list starts folded whatever the count. */
const PHONE_QUERY = '(max-width: 600px)';

/**
 * The compared runs: colour swatch (as in the charts), name linking to the run, id and status.
 * Past eight runs, or on a phone, the list starts folded to one line ("12 runs", a "Show runs"
 * toggle) so the first chart is on the first screen and the charts' legend is the one list of
 * runs in view; opened, a long list scrolls within a bounded height.
 */
export function CompareRunList({ runs }: { runs: ColoredRun[] }) {
  const id = useId();
  const many = runs.length > OPEN_UP_TO;
  // Read once: the list opens or folds by the reader's choice after that, not by rotating the phone.
  const [phone] = useState(() => window.matchMedia(PHONE_QUERY).matches);
  const foldable = many || phone;
  const [open, setOpen] = useState(!foldable);
  return (
    <div className="compare-runs-box">
      {foldable && (
        <p className="compare-runs-summary">
          <span>{runs.length} runs</span>
          <button
            type="button"
            className="secondary chart-button"
            aria-expanded={open}
            aria-controls={id}
            onClick={() => setOpen(!open)}
          >
            {open ? 'Hide runs' : 'Show runs'}
          </button>
        </p>
      )}
      <ul
        className={many ? 'compare-runs compare-runs-many' : 'compare-runs'}
        aria-label="Compared runs"
        id={id}
        hidden={!open}
      >
        {runs.map(({ run, style }) => (
          <li key={run.id} className="compare-run">
            <span className="swatch" style={swatchCss(style)} aria-hidden="true" />
            <Link to={pathOf(run.url)}>{run.name}</Link>
            <span className="muted mono">{run.displayId}</span>
            <span className={`status status-${run.status}`}>{run.status}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
