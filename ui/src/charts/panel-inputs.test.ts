import { describe, expect, it } from 'vitest';
import type { MetricSeries } from '../api/metric-queries';
import { buildModel } from './chart-model';
import type { ResolvedRun } from './MetricChart';
import { panelInputs, panelLineStyle } from './panel-inputs';
import { RUN_DASHES, runStyle } from './run-colors';

const run = (runId: number, number: number): ResolvedRun => ({
  runId,
  name: `run-${runId}`,
  ...runStyle(number),
  live: false,
  forkStep: null,
  startMs: null,
});

const series = (steps: number[], values: number[]): MetricSeries => ({
  steps,
  times: steps.map((s) => s * 1000),
  values,
  flags: values.map(() => undefined),
  appended: 0,
  total: steps.length,
});

describe('panel inputs', () => {
  it("keeps a run's look for one metric; colours metrics for one run; dashes metrics across runs", () => {
    const r = run(1, 3);
    expect(panelLineStyle(r, 0, 1, 5)).toEqual(runStyle(3));
    expect(panelLineStyle(r, 1, 3, 1)).toEqual(runStyle(2));
    expect(panelLineStyle(r, 1, 3, 2)).toEqual({ color: runStyle(3).color, dash: RUN_DASHES[1] });
  });

  it('names lines after run and metric, skips what has not arrived, and carries the x series', () => {
    const runs = [run(1, 1), run(2, 2)];
    const data: Record<string, MetricSeries> = {
      '1/train/loss': series([0, 1], [2, 1]),
      '1/train/lr': series([0, 1], [0.1, 0.05]),
      '2/train/loss': series([0, 1], [3, 2]),
    };
    const seriesOf = (runId: number, name: string) => data[`${runId}/${name}`];
    const inputs = panelInputs(runs, ['train/loss', 'train/lr'], seriesOf);
    expect(inputs.map((i) => i.name)).toEqual(['run-1 · train/loss', 'run-2 · train/loss', 'run-1 · train/lr']);

    // Against train/lr: run 2 has none, so it is left out; x is lr's value at each step.
    const against = panelInputs(runs, ['train/loss'], seriesOf, 'train/lr');
    expect(against.map((i) => i.name)).toEqual(['run-1']);
    const model = buildModel(against, { xMode: 'metric', smoothing: 0, logScale: false });
    expect(model.traces[0]!.xs).toEqual([0.05, 0.1]);
    expect(model.traces[0]!.ys).toEqual([1, 2]);
    expect(model.traces[0]!.steps).toEqual([1, 0]);
  });
});
