/**
 * Stand-in for `charts/RunCharts` (another engineer's) with the same props, until it lands.
 * Import-free on purpose: switching is a one-line change of the import.
 */
export interface ChartRun {
  runId: number;
  name: string;
  color?: string;
  live?: boolean;
  forkStep?: number | null;
}

/** Names the runs whose charts will be drawn here. */
export function RunCharts(props: { runs: ChartRun[]; logNames?: string[] }) {
  return (
    <div className="state state-empty">
      <p className="state-title">Charts are not available yet</p>
      <p>{props.runs.map((run) => run.name).join(', ')}</p>
    </div>
  );
}
