/** The overlay's legend: one toggle button per run (aria-pressed: shown). */
export function RunLegend(props: {
  runs: readonly { runId: number; name: string; color: string }[];
  hidden: ReadonlySet<number>;
  setHidden: (ids: ReadonlySet<number>) => void;
}) {
  const { runs, hidden } = props;
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
              className="chart-legend-item"
              aria-pressed={shown}
              title={shown ? `Hide ${run.name}` : `Show ${run.name}`}
              onClick={() => toggle(run.runId)}
            >
              <span className="chart-swatch" style={{ background: run.color }} aria-hidden="true" />
              <span className="chart-legend-name">{run.name}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
