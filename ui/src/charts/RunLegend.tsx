import { middleEllipsis } from './middle-ellipsis';
import { swatchCss } from './run-colors';

/** Legend names longer than this are cut in the middle (the full name is the button's name). */
const LEGEND_NAME_CHARS = 28;

/**
 * The overlay's legend: one toggle button per run (aria-pressed: shown), its swatch in the
 * run's colour and line style. With many runs it keeps a few lines' height and scrolls.
 */
export function RunLegend(props: {
  runs: readonly { runId: number; name: string; color: string; dash: readonly number[] }[];
  hidden: ReadonlySet<number>;
  setHidden: (ids: ReadonlySet<number>) => void;
  /** The run drawn highlighted; hovering or focusing an entry reports its run (null on leaving). */
  highlighted?: number | null;
  onHighlight?: (runId: number | null) => void;
}) {
  const { runs, hidden, onHighlight } = props;
  const toggle = (runId: number) => {
    const next = new Set(hidden);
    if (next.has(runId)) next.delete(runId);
    else next.add(runId);
    props.setHidden(next);
  };
  return (
    <ul className="chart-legend" aria-label="Runs">
      {runs.map((run) => {
        const shown = !hidden.has(run.runId);
        return (
          <li key={run.runId}>
            <button
              type="button"
              className={props.highlighted === run.runId ? 'chart-legend-item highlighted' : 'chart-legend-item'}
              aria-pressed={shown}
              aria-label={run.name}
              title={shown ? `Hide ${run.name}` : `Show ${run.name}`}
              onClick={() => toggle(run.runId)}
              onMouseEnter={onHighlight && (() => onHighlight(run.runId))}
              onMouseLeave={onHighlight && (() => onHighlight(null))}
              onFocus={onHighlight && (() => onHighlight(run.runId))}
              onBlur={onHighlight && (() => onHighlight(null))}
            >
              <span className="chart-swatch" style={swatchCss(run)} aria-hidden="true" />
              <span className="chart-legend-name">{middleEllipsis(run.name, LEGEND_NAME_CHARS)}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
