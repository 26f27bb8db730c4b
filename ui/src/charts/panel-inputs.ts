/**
 * What a panel hands the chart model: one input per run and metric it draws. A panel of one
 * metric draws each run in the run's own look; with several metrics, one run's metrics take
 * the palette's colours in turn, and several runs keep their colours with a line dash per metric.
 */
import type { MetricSeries } from '../api/metric-queries';
import type { ModelInput } from './chart-model';
import type { ResolvedRun } from './MetricChart';
import { RUN_DASHES, runStyle } from './run-colors';

/** The look of metric number `index` (0-based) of `metricCount` for `run` among `runCount` runs. */
export function panelLineStyle(
  run: Pick<ResolvedRun, 'color' | 'dash'>,
  index: number,
  metricCount: number,
  runCount: number,
): { color: string; dash: readonly number[] } {
  if (metricCount <= 1) return { color: run.color, dash: run.dash };
  if (runCount <= 1) return runStyle(index + 1);
  return { color: run.color, dash: RUN_DASHES[index % RUN_DASHES.length]! };
}

/**
 * The model inputs of `runs` × `metrics` (metric-major), those whose series has arrived;
 * `seriesOf` looks a series up, `xMetric` names the x axis' metric (its series rides along).
 * A line is named after its run, or after its metric too when the panel draws several.
 */
export function panelInputs(
  runs: readonly ResolvedRun[],
  metrics: readonly string[],
  seriesOf: (runId: number, logName: string) => MetricSeries | undefined,
  xMetric?: string,
): ModelInput[] {
  const inputs: ModelInput[] = [];
  metrics.forEach((metric, index) => {
    for (const run of runs) {
      const series = seriesOf(run.runId, metric);
      if (!series) continue;
      const xSeries = xMetric === undefined ? undefined : seriesOf(run.runId, xMetric);
      if (xMetric !== undefined && !xSeries) continue;
      const style = panelLineStyle(run, index, metrics.length, runs.length);
      inputs.push({
        runId: run.runId,
        name: metrics.length > 1 ? (runs.length > 1 ? `${run.name} · ${metric}` : metric) : run.name,
        color: style.color,
        dash: style.dash,
        series,
        ...(xSeries ? { xSeries } : {}),
        forkStep: run.forkStep,
        startMs: run.startMs,
      });
    }
  });
  return inputs;
}
