/** A run to chart: one run on the run page, several overlaid on the compare page. */
export interface ChartRun {
  /** Numeric run id. */
  runId: number;
  /** Shown in legends and tooltips. */
  name: string;
  /** A CSS colour; a palette colour per run index otherwise. */
  color?: string;
  /** True while the run is RUNNING: new metric names and points are polled every ~3 s. */
  live?: boolean;
  /** For a fork: steps <= forkStep are inherited from the parent. */
  forkStep?: number | null;
}

/** The charts of one or more runs: one chart per metric, grouped by logGroup. */
export function RunCharts(props: { runs: ChartRun[]; logNames?: string[] }) {
  return (
    <section className="run-charts" aria-label="Charts">
      <p className="muted">
        Charts for {props.runs.map((r) => r.name).join(', ')} ({props.logNames?.length ?? 'all'} metrics)
      </p>
    </section>
  );
}
