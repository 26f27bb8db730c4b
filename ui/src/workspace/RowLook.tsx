import { runStyle, swatchCss } from '../charts/run-colors';

/** What the runs table needs to show each run's look and charts toggle. */
export interface RowLooks {
  /** Runs the charts draw (the first rows); the others get a swatch only. */
  charted: ReadonlySet<number>;
  hidden: ReadonlySet<number>;
  highlight: number | null;
  onHide: (runId: number, hide: boolean) => void;
  /** The pointer entered a run's row (its id) or left the rows (null). */
  onHover: (runId: number | null) => void;
}

/**
 * A row's colour swatch (the run's colour and line style in every chart) and, for a charted
 * run, an eye button that hides or shows it in the charts (aria-pressed: shown).
 */
export function RowLook({ run, looks }: { run: { id: number; name: string; number: number }; looks: RowLooks }) {
  const swatch = (
    <span className="chart-swatch row-swatch" style={swatchCss(runStyle(run.number))} aria-hidden="true" />
  );
  if (!looks.charted.has(run.id)) {
    return (
      <span className="row-look" title="Not charted: the charts show the first 100 rows">
        {swatch}
      </span>
    );
  }
  const shown = !looks.hidden.has(run.id);
  return (
    <span className="row-look">
      {swatch}
      <button
        type="button"
        className="eye-button"
        aria-label={`Show ${run.name} in charts`}
        aria-pressed={shown}
        title={shown ? `Hide ${run.name} in charts` : `Show ${run.name} in charts`}
        onClick={() => looks.onHide(run.id, shown)}
        onFocus={() => looks.onHover(run.id)}
        onBlur={() => looks.onHover(null)}
      >
        <EyeIcon open={shown} />
      </button>
    </span>
  );
}

function EyeIcon({ open }: { open: boolean }) {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" fill="none" stroke="currentColor">
      <path d="M1.5 8S4 3.5 8 3.5 14.5 8 14.5 8 12 12.5 8 12.5 1.5 8 1.5 8Z" strokeWidth="1.3" />
      <circle cx="8" cy="8" r="2" strokeWidth="1.3" />
      {!open && <path d="M2.5 13.5 13.5 2.5" strokeWidth="1.5" />}
    </svg>
  );
}
