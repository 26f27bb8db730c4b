import { describe, expect, it } from 'vitest';
import type { MetricSeries } from '../api/metric-queries';
import { buildModel, ema, nearestIndex, stepWindow, type ModelInput, type RunTrace } from './chart-model';

const T0 = Date.UTC(2026, 0, 1);

/** A series of `steps` with `values`; times one second apart from T0 unless given. */
function series(steps: number[], values: (number | null)[], extra: Partial<MetricSeries> = {}): MetricSeries {
  return {
    steps,
    times: steps.map((_, i) => T0 + i * 1000),
    values,
    flags: values.map((v) => (v === null ? 'NaN' : undefined)),
    appended: 0,
    total: steps.length,
    ...extra,
  };
}

function input(s: MetricSeries, more: Partial<ModelInput> = {}): ModelInput {
  return { runId: 1, name: 'run-1', color: '#111', series: s, forkStep: null, startMs: null, ...more };
}

const plain = { xMode: 'step', smoothing: 0, logScale: false } as const;

describe('ema', () => {
  it('returns a copy of the values when the weight is zero or negative', () => {
    const values = [1, null, 3];
    for (const w of [0, -0.5]) {
      const out = ema(values, w);
      expect(out).toEqual(values);
      expect(out).not.toBe(values);
    }
  });

  it('is debiased: the first point is itself and a constant series stays constant', () => {
    expect(ema([5], 0.9)).toEqual([5]);
    const out = ema([2, 2, 2, 2], 0.99);
    for (const v of out) expect(v).toBeCloseTo(2, 12);
  });

  it('keeps null points null and carries the average across them', () => {
    // w = 0.5: after 1, avg 0.5 / norm 0.5; after 3, avg 1.75 / norm 0.75.
    const out = ema([1, null, 3], 0.5);
    expect(out[0]).toBe(1);
    expect(out[1]).toBeNull();
    expect(out[2]).toBeCloseTo(7 / 3, 12);
  });

  it('answers an empty array for no values', () => {
    expect(ema([], 0.6)).toEqual([]);
  });

  it('lags behind a step change by the weight', () => {
    const out = ema([0, 0, 0, 10], 0.5);
    // (0.5·10) / (1 − 0.5⁴) = 5 / 0.9375.
    expect(out[3]).toBeCloseTo(5 / 0.9375, 12);
  });
});

describe('buildModel', () => {
  it('draws nothing for no runs', () => {
    const m = buildModel([], plain);
    expect(m.data).toEqual([[]]);
    expect(m).toMatchObject({ lines: [], traces: [], points: 0, nonFinite: 0, hiddenByLog: 0 });
  });

  it('draws one raw line of one run on the step axis', () => {
    const m = buildModel([input(series([0, 1, 2], [3, 4, 5]))], plain);
    expect(m.data).toEqual([
      [0, 1, 2],
      [3, 4, 5],
    ]);
    expect(m.lines).toEqual([{ run: 0, kind: 'raw', part: 'all', faint: false }]);
    expect(m.points).toBe(3);
    expect(m.traces[0]!.forkX).toBeNull();
  });

  it('orders points by x, keeping steps, times, values and flags together (stable on ties)', () => {
    const s = series([3, 1, 2, 1], [30, 10, 20, null], { times: [T0 + 3, T0 + 1, T0 + 2, T0 + 4] });
    const t = buildModel([input(s)], plain).traces[0]!;
    expect(t.xs).toEqual([1, 1, 2, 3]);
    expect(t.ys).toEqual([10, null, 20, 30]);
    expect(t.times).toEqual([T0 + 1, T0 + 4, T0 + 2, T0 + 3]);
    expect(t.flags).toEqual([undefined, 'NaN', undefined, undefined]);
  });

  it('places points in seconds since the run started, or since its first point', () => {
    const s = series([0, 1], [1, 2], { times: [T0 + 2_000, T0 + 5_500] });
    expect(buildModel([input(s, { startMs: T0 })], { ...plain, xMode: 'relative' }).traces[0]!.xs).toEqual([2, 5.5]);
    expect(buildModel([input(s)], { ...plain, xMode: 'relative' }).traces[0]!.xs).toEqual([0, 3.5]);
  });

  it("starts a fork's relative time at its earliest inherited point, never below zero", () => {
    const s = series([0, 5, 6], [1, 2, 3], { times: [T0 - 60_000, T0 - 30_000, T0 + 1_000] });
    expect(buildModel([input(s, { startMs: T0 })], { ...plain, xMode: 'relative' }).traces[0]!.xs).toEqual([0, 30, 61]);
  });

  it('places points at wall-clock seconds on the wall axis', () => {
    const s = series([0, 1], [1, 2], { times: [T0, T0 + 1500] });
    expect(buildModel([input(s)], { ...plain, xMode: 'wall' }).traces[0]!.xs).toEqual([T0 / 1000, T0 / 1000 + 1.5]);
  });

  it('counts non-finite points and breaks the raw line at them', () => {
    const s = series([0, 1, 2], [1, null, 3], { flags: [undefined, 'Infinity', undefined] });
    const m = buildModel([input(s)], plain);
    expect(m.nonFinite).toBe(1);
    expect(m.data[1]).toEqual([1, null, 3]);
  });

  it('draws a faint raw line under a smoothed one that carries on across a gap', () => {
    const m = buildModel([input(series([0, 1, 2], [1, null, 3]))], { ...plain, smoothing: 0.5 });
    expect(m.lines).toEqual([
      { run: 0, kind: 'raw', part: 'all', faint: true },
      { run: 0, kind: 'smooth', part: 'all', faint: false },
    ]);
    expect(m.data[1]).toEqual([1, null, 3]);
    // undefined, not null: uPlot joins the line over an undefined value.
    expect(m.data[2]![1]).toBeUndefined();
    expect(m.data[2]![2]).toBeCloseTo(7 / 3, 12);
    expect(m.traces[0]!.shown).toEqual(ema([1, null, 3], 0.5));
  });

  it('hides values a log scale cannot draw and counts the raw ones', () => {
    const m = buildModel([input(series([0, 1, 2, 3], [-1, 0, 2, null]))], { ...plain, logScale: true });
    expect(m.data[1]).toEqual([null, null, 2, null]);
    expect(m.hiddenByLog).toBe(2);
    // The trace keeps the raw values (the tooltip shows them).
    expect(m.traces[0]!.ys).toEqual([-1, 0, 2, null]);
  });

  it('splits a fork into an inherited and an own part that meet at the fork step', () => {
    const m = buildModel([input(series([0, 1, 2, 3, 4], [10, 11, 12, 13, 14]), { forkStep: 2 })], plain);
    expect(m.lines.map((l) => l.part)).toEqual(['inherited', 'own']);
    expect(m.data[1]).toEqual([10, 11, 12, undefined, undefined]);
    expect(m.data[2]).toEqual([undefined, undefined, 12, 13, 14]);
    expect(m.traces[0]!.forkX).toBe(2);
  });

  it('draws a fork with no own points yet as inherited only, without a fork line', () => {
    const m = buildModel([input(series([0, 1], [1, 2]), { forkStep: 5 })], plain);
    expect(m.lines.map((l) => l.part)).toEqual(['inherited']);
    expect(m.traces[0]!.forkX).toBeNull();
  });

  it('draws a fork whose points are all its own as one whole line', () => {
    const m = buildModel([input(series([6, 7], [1, 2]), { forkStep: 5 })], plain);
    expect(m.lines.map((l) => l.part)).toEqual(['all']);
    expect(m.traces[0]!.forkX).toBeNull();
  });

  it('splits both the raw and the smoothed line of a fork', () => {
    const m = buildModel([input(series([0, 1, 2], [1, 2, 3]), { forkStep: 0 })], { ...plain, smoothing: 0.3 });
    expect(m.lines.map((l) => `${l.kind}/${l.part}/${l.faint}`)).toEqual([
      'raw/inherited/true',
      'raw/own/true',
      'smooth/inherited/false',
      'smooth/own/false',
    ]);
    expect(m.data).toHaveLength(5);
  });

  it('aligns several runs on the union of their x values', () => {
    const a = input(series([0, 2], [1, 3]), { runId: 1 });
    const b = input(series([1, 2], [5, 6]), { runId: 2, name: 'run-2' });
    const m = buildModel([a, b], plain);
    expect(m.data[0]).toEqual([0, 1, 2]);
    expect(m.data[1]).toEqual([1, undefined, 3]);
    expect(m.data[2]).toEqual([undefined, 5, 6]);
    expect(m.lines.map((l) => l.run)).toEqual([0, 1]);
    expect(m.points).toBe(4);
  });

  it('orders a large reversed series', () => {
    const n = 100_000;
    const steps = Array.from({ length: n }, (_, i) => n - 1 - i);
    const t = buildModel(
      [
        input(
          series(
            steps,
            steps.map((s) => s * 2),
          ),
        ),
      ],
      plain,
    ).traces[0]!;
    expect(t.xs).toHaveLength(n);
    expect(t.xs[0]).toBe(0);
    expect(t.xs[n - 1]).toBe(n - 1);
    expect(t.ys[12_345]).toBe(24_690);
  });
});

describe('nearestIndex', () => {
  it('answers -1 for no points', () => {
    expect(nearestIndex([], 3)).toBe(-1);
  });

  it('finds the nearest point, the earlier one on a tie, and clamps to the ends', () => {
    const xs = [0, 10, 20, 30];
    expect(nearestIndex(xs, 10)).toBe(1);
    expect(nearestIndex(xs, 14)).toBe(1);
    expect(nearestIndex(xs, 16)).toBe(2);
    expect(nearestIndex(xs, 15)).toBe(1);
    expect(nearestIndex(xs, -100)).toBe(0);
    expect(nearestIndex(xs, 1e9)).toBe(3);
  });

  it('searches a million points', () => {
    const xs = Array.from({ length: 1_000_000 }, (_, i) => i * 0.5);
    expect(nearestIndex(xs, 123_456.2)).toBe(246_912);
  });
});

describe('stepWindow', () => {
  const trace = (xs: number[], steps: number[]): RunTrace => ({
    runId: 1,
    name: 'r',
    color: '#000',
    dash: [],
    xs,
    steps,
    times: xs,
    ys: xs,
    shown: xs,
    flags: xs.map(() => undefined),
    forkX: null,
  });

  it('rounds a step range outwards to whole steps, never below zero', () => {
    expect(stepWindow([], 'step', 1.2, 7.8)).toEqual({ min: 2, max: 7 });
    expect(stepWindow([], 'step', -5.5, 3)).toEqual({ min: 0, max: 3 });
    expect(stepWindow([], 'step', 2.1, 2.9)).toBeNull();
  });

  it('on a time axis answers the steps of the points inside the range, across runs', () => {
    const traces = [trace([0, 1, 2, 3], [10, 20, 30, 40]), trace([1.5, 2.5], [5, 50])];
    expect(stepWindow(traces, 'relative', 1, 2)).toEqual({ min: 5, max: 30 });
    expect(stepWindow(traces, 'wall', 2.5, 3)).toEqual({ min: 40, max: 50 });
    expect(stepWindow(traces, 'relative', 3.1, 9)).toBeNull();
  });
});
