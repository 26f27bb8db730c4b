/**
 * From fetched series to what uPlot draws: x values for the chosen axis, EMA smoothing with
 * the raw line kept, a fork's inherited part as its own (faded) line, non-finite points set
 * aside as markers, and the runs aligned on one x array (uPlot.join, or a grid of columns for
 * charts of many runs: chart-columns.ts).
 */
import uPlot from 'uplot';
import type { MetricSeries } from '../api/metric-queries';
import { alignOnColumns } from './chart-columns';
import { xAtSteps } from './metric-x';

/** The x axis: step, seconds since the run started, or wall-clock time. */
export type XMode = 'step' | 'relative' | 'wall';

/** A chart's x axis: an XMode, or another metric's value at the same step (ModelInput.xSeries). */
export type XAxis = XMode | 'metric';

/** One run's series as a chart receives it. */
export interface ModelInput {
  runId: number;
  name: string;
  color: string;
  /** Line dash in CSS px (run-colors.ts); absent or empty: solid. */
  dash?: readonly number[];
  series: MetricSeries;
  /** On a 'metric' x axis: the run's series of that metric (matched by step: metric-x.ts). */
  xSeries?: MetricSeries;
  forkStep: number | null;
  /** The run's creation time (epoch ms), zero of the relative-time axis unless a point is earlier; null: its first point's. */
  startMs: number | null;
}

/** A run's points ordered by x, for the tooltip, markers, zoom mapping and CSV. */
export interface RunTrace {
  runId: number;
  name: string;
  color: string;
  dash: readonly number[];
  xs: number[];
  steps: number[];
  times: number[];
  /** Raw values; null where non-finite. */
  ys: (number | null)[];
  /** Smoothed values when smoothing is on, else the raw values. */
  shown: (number | null)[];
  flags: (string | undefined)[];
  /** For a fork with points on both sides: the x where its own part starts. */
  forkX: number | null;
}

/** What one uPlot series is: a run's raw or smoothed line, whole or one side of its fork. */
export interface LineSpec {
  run: number;
  kind: 'raw' | 'smooth';
  part: 'all' | 'inherited' | 'own';
  /** Drawn faint: the raw line under a smoothed one. */
  faint: boolean;
}

/** Everything a chart draws. */
export interface ChartModel {
  data: uPlot.AlignedData;
  lines: LineSpec[];
  traces: RunTrace[];
  /** Points shown (all runs). */
  points: number;
  nonFinite: number;
  /** Values left out because a log scale cannot draw them (<= 0). */
  hiddenByLog: number;
}

/** Debiased exponential moving average; non-finite points are skipped (null stays null). */
export function ema(values: readonly (number | null)[], weight: number): (number | null)[] {
  if (weight <= 0) return values.slice();
  const out: (number | null)[] = new Array<number | null>(values.length);
  let avg = 0;
  let norm = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) {
      out[i] = null;
      continue;
    }
    avg = weight * avg + (1 - weight) * v;
    norm = weight * norm + (1 - weight);
    out[i] = avg / norm;
  }
  return out;
}

function xOf(mode: XMode, step: number, time: number, startMs: number): number {
  if (mode === 'step') return step;
  if (mode === 'wall') return time / 1000;
  return (time - startMs) / 1000;
}

/** Indices of the series ordered by x (stable; already ordered in the common case). */
function orderByX(xs: readonly number[]): number[] {
  const idx = xs.map((_, i) => i);
  for (let i = 1; i < xs.length; i++) {
    if (xs[i]! < xs[i - 1]!) return idx.sort((a, b) => xs[a]! - xs[b]! || a - b);
  }
  return idx;
}

/**
 * The zero of the relative-time axis: the run's start, or its earliest point when that is
 * earlier (a fork's points inherited from its parent predate the fork), so no point lands
 * before zero and stretches a chart of several runs; its first point's time without a start.
 */
function relativeZero(startMs: number | null, times: readonly number[]): number {
  let zero = startMs ?? times[0] ?? 0;
  for (const t of times) if (t < zero) zero = t;
  return zero;
}

function traceOf(input: ModelInput, mode: XAxis, smoothing: number): RunTrace {
  const s = input.series;
  const start = relativeZero(input.startMs, s.times);
  let rawXs: number[];
  let order: number[];
  if (mode === 'metric') {
    // Points whose step the x metric does not reach are left out.
    const xs = input.xSeries ? xAtSteps(input.xSeries, s.steps) : [];
    rawXs = xs.map((x) => x ?? NaN);
    const kept = s.steps.map((_, i) => i).filter((i) => xs[i] !== null && xs[i] !== undefined);
    order = kept.sort((a, b) => rawXs[a]! - rawXs[b]! || a - b);
  } else {
    rawXs = s.steps.map((step, i) => xOf(mode, step, s.times[i]!, start));
    order = orderByX(rawXs);
  }
  const ys = order.map((i) => s.values[i] ?? null);
  return {
    runId: input.runId,
    name: input.name,
    color: input.color,
    dash: input.dash ?? [],
    xs: order.map((i) => rawXs[i]!),
    steps: order.map((i) => s.steps[i]!),
    times: order.map((i) => s.times[i]!),
    ys,
    shown: smoothing > 0 ? ema(ys, smoothing) : ys,
    flags: order.map((i) => s.flags[i]),
    forkX: null,
  };
}

/** `values` restricted to one side of the fork (the other side undefined, so no gap is drawn). */
function partOf(
  values: readonly (number | null | undefined)[],
  steps: readonly number[],
  part: LineSpec['part'],
  forkStep: number,
): (number | null | undefined)[] {
  if (part === 'all') return values.slice();
  if (part === 'inherited') return values.map((v, i) => (steps[i]! <= forkStep ? v : undefined));
  // The own part starts at the last inherited point so the two lines meet.
  let lastInherited = -1;
  for (let i = 0; i < steps.length; i++) if (steps[i]! <= forkStep) lastInherited = i;
  return values.map((v, i) => (steps[i]! > forkStep || i === lastInherited ? v : undefined));
}

/** Builds the chart of the given runs' series. */
export function buildModel(
  inputs: readonly ModelInput[],
  opts: {
    xMode: XAxis;
    smoothing: number;
    logScale: boolean;
    /** Align the runs on this many columns when that is smaller than their points (chart-columns.ts). */
    columns?: number;
  },
): ChartModel {
  const lines: LineSpec[] = [];
  const tables: uPlot.AlignedData[] = [];
  const traces: RunTrace[] = [];
  let points = 0;
  let nonFinite = 0;
  let hiddenByLog = 0;
  const logMask = (v: number | null | undefined) =>
    opts.logScale && v !== null && v !== undefined && v <= 0 ? null : v;

  inputs.forEach((input, run) => {
    const trace = traceOf(input, opts.xMode, opts.smoothing);
    traces.push(trace);
    points += trace.xs.length;
    for (const f of trace.flags) if (f !== undefined) nonFinite++;
    if (opts.logScale) for (const v of trace.ys) if (v !== null && v <= 0) hiddenByLog++;

    const fork = input.forkStep ?? null;
    const inherits = fork !== null && trace.steps.some((s) => s <= fork);
    const owns = fork === null || trace.steps.some((s) => s > fork);
    if (inherits && owns) {
      let last = 0;
      for (let i = 0; i < trace.steps.length; i++) if (trace.steps[i]! <= fork) last = i;
      trace.forkX = trace.xs[last] ?? null;
    }
    const parts: LineSpec['part'][] = !inherits ? ['all'] : owns ? ['inherited', 'own'] : ['inherited'];
    const kinds: LineSpec['kind'][] = opts.smoothing > 0 ? ['raw', 'smooth'] : ['raw'];
    const table: (number | null | undefined)[][] = [trace.xs];
    for (const kind of kinds) {
      for (const part of parts) {
        // The raw line breaks at a non-finite point; the smoothed one carries on across it.
        const values = kind === 'raw' ? trace.ys : trace.shown.map((v) => v ?? undefined);
        table.push(partOf(values, trace.steps, part, fork ?? 0).map(logMask));
        lines.push({ run, kind, part, faint: kind === 'raw' && opts.smoothing > 0 });
      }
    }
    tables.push(table as uPlot.AlignedData);
  });

  const data: uPlot.AlignedData =
    tables.length === 0
      ? [[]]
      : tables.length === 1
        ? tables[0]!
        : ((opts.columns !== undefined ? alignOnColumns(tables, opts.columns) : null) ?? uPlot.join(tables));
  return { data, lines, traces, points, nonFinite, hiddenByLog };
}

/** Index of the point of `xs` (ascending) nearest to x, or -1 when empty. */
export function nearestIndex(xs: readonly number[], x: number): number {
  if (xs.length === 0) return -1;
  let lo = 0;
  let hi = xs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0 && Math.abs(xs[lo - 1]! - x) <= Math.abs(xs[lo]! - x)) return lo - 1;
  return lo;
}

/**
 * The step window of an x range: in step mode the range rounded outwards; on a time axis the
 * steps of the points whose x falls inside it (null when none does).
 */
export function stepWindow(
  traces: readonly RunTrace[],
  mode: XAxis,
  x0: number,
  x1: number,
): { min: number; max: number } | null {
  if (mode === 'step') {
    const min = Math.max(0, Math.ceil(x0));
    const max = Math.floor(x1);
    return max >= min ? { min, max } : null;
  }
  let min = Infinity;
  let max = -Infinity;
  for (const t of traces) {
    for (let i = 0; i < t.xs.length; i++) {
      const x = t.xs[i]!;
      if (x < x0 || x > x1) continue;
      min = Math.min(min, t.steps[i]!);
      max = Math.max(max, t.steps[i]!);
    }
  }
  return min <= max ? { min, max } : null;
}
