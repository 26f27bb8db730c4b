/**
 * Helpers of the SeriesStore conformance suite: a fresh store per test, a reference model
 * of the deduplication and fork rules, and brute-force summaries to compare against.
 */
import { expect } from 'vitest';
import type {
  ConsoleLine,
  LineageLink,
  MetricPoint,
  MetricPointInput,
  SeriesExtent,
  SeriesSummary,
} from '../../src/domain/types.js';
import type { SeriesStore } from '../../src/store/series-store.js';

/** Opens a fresh, isolated, migrated store; close() releases it. */
export type OpenSeriesStore = () => Promise<{ series: SeriesStore; close: () => Promise<void> }>;

/** Returns a test body that runs fn on a fresh store and always closes it. */
export function withStore(open: OpenSeriesStore, fn: (s: SeriesStore) => Promise<void>): () => Promise<void> {
  return async () => {
    const store = await open();
    try {
      await fn(store.series);
    } finally {
      await store.close();
    }
  };
}

/** Returns the lineage of an unforked run. */
export const own = (runId: number): LineageLink[] => [{ runId, maxStep: Infinity }];

/** Returns a metric point input. */
export const pt = (logName: string, step: number, time: number, value: number): MetricPointInput => ({
  logName,
  step,
  time,
  value,
});

/** Returns points step = from..to of one metric with value f(step) and time = step. */
export function range(logName: string, from: number, to: number, f: (step: number) => number): MetricPointInput[] {
  const out: MetricPointInput[] = [];
  for (let step = from; step <= to; step++) out.push(pt(logName, step, step, f(step)));
  return out;
}

/** A reference point: the raw value, NaN and ±Infinity included. */
export interface ModelPoint {
  step: number;
  time: number;
  value: number;
}

/**
 * The key of a point under docs/api.md §4.1-§4.2: its step, or its step and time for a logName of the
 * sys/ group.
 */
const modelKey = (logName: string, step: number, time: number): string =>
  logName.startsWith('sys/') ? `${step}:${time}` : `${step}`;

/** The stored points docs/api.md §4.1 implies, kept by brute force. */
export class PointModel {
  private readonly series = new Map<string, Map<string, ModelPoint>>();

  /** Applies a batch with the rules of docs/api.md §4.1: later time wins, equal time the later line. */
  apply(runId: number, points: readonly MetricPointInput[]): void {
    for (const p of points) {
      const key = `${runId}\u0000${p.logName}`;
      let keys = this.series.get(key);
      if (!keys) {
        keys = new Map();
        this.series.set(key, keys);
      }
      const at = modelKey(p.logName, p.step, p.time);
      const old = keys.get(at);
      if (old === undefined || p.time >= old.time) keys.set(at, { step: p.step, time: p.time, value: p.value });
    }
  }

  /** Returns the effective points of a metric through a lineage, ascending by step (then time). */
  effective(lineage: readonly LineageLink[], logName: string): ModelPoint[] {
    const out = new Map<string, ModelPoint>();
    let bound = Infinity;
    for (const link of lineage) {
      bound = Math.min(bound, link.maxStep);
      for (const p of this.series.get(`${link.runId}\u0000${logName}`)?.values() ?? []) {
        const at = modelKey(logName, p.step, p.time);
        if (p.step <= bound && !out.has(at)) out.set(at, p);
      }
    }
    return [...out.values()].sort((a, b) => a.step - b.step || a.time - b.time);
  }
}

/** A summary computed by brute force (plain two-pass), variance as m2 / count. */
export interface BruteSummary extends SeriesExtent {
  count: number;
  mean: number;
  variance: number;
  min: number | null;
  max: number | null;
}

/** Returns the brute-force summary of effective points (ascending steps). */
export function bruteSummary(points: readonly ModelPoint[]): BruteSummary {
  const finite = points.filter((p) => Number.isFinite(p.value));
  const xs = finite.map((p) => p.value);
  const n = xs.length;
  const mean = n === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / n;
  const variance = n === 0 ? 0 : xs.reduce((a, x) => a + (x - mean) * (x - mean), 0) / n;
  const lastFinite = finite[finite.length - 1];
  const times = points.map((p) => p.time);
  return {
    count: n,
    mean,
    variance,
    min: n === 0 ? null : Math.min(...xs),
    max: n === 0 ? null : Math.max(...xs),
    lastStep: lastFinite?.step ?? null,
    lastValue: lastFinite?.value ?? null,
    points: points.length,
    firstStep: points[0]?.step ?? null,
    maxStep: points[points.length - 1]?.step ?? null,
    firstTime: times.length === 0 ? null : Math.min(...times),
    lastTime: times.length === 0 ? null : Math.max(...times),
  };
}

/** Asserts |actual - expected| <= 1e-9 * max(|expected|, floor). */
export function expectClose(actual: number, expected: number, floor: number, label: string): void {
  const tolerance = 1e-9 * Math.max(Math.abs(expected), floor);
  expect(Math.abs(actual - expected), `${label}: ${actual} vs ${expected}`).toBeLessThanOrEqual(tolerance);
}

/** Asserts a store summary matches the brute-force one (exact fields exactly, moments within 1e-9). */
export function expectSummary(actual: SeriesSummary | undefined, expected: BruteSummary, label: string): void {
  expect(actual, label).toBeDefined();
  if (!actual) return;
  const { mean, m2, count, ...exact } = actual;
  expect({ count, ...exact }, label).toMatchObject({
    count: expected.count,
    min: expected.min,
    max: expected.max,
    lastStep: expected.lastStep,
    lastValue: expected.lastValue,
    points: expected.points,
    firstStep: expected.firstStep,
    maxStep: expected.maxStep,
    firstTime: expected.firstTime,
    lastTime: expected.lastTime,
  });
  const scale = Math.max(Math.abs(expected.min ?? 0), Math.abs(expected.max ?? 0));
  // 1e-300: values near 1e-162 square into subnormals, where any rounding is the whole value.
  expectClose(mean, expected.mean, 1e-4 * scale + 1e-300, `${label} mean`);
  expectClose(count === 0 ? 0 : m2 / count, expected.variance, 1e-4 * scale * scale + 1e-300, `${label} variance`);
}

/** Returns the public form of reference points, as readPoints gives them. */
export function asStored(points: readonly ModelPoint[]): MetricPoint[] {
  return points.map((p) => {
    if (Number.isFinite(p.value)) return { step: p.step, time: p.time, value: p.value, flag: null };
    const flag = Number.isNaN(p.value) ? 'NaN' : p.value > 0 ? 'Infinity' : '-Infinity';
    return { step: p.step, time: p.time, value: null, flag };
  });
}

/** The keys of a console line in the logs answer, in their order. */
const CONSOLE_KEYS = ['time', 'logType', 'lineNumber', 'message', 'step'];

/**
 * A page of listConsoleJson with each line's JSON text parsed back into a ConsoleLine (time
 * from its ISO text); fails the test when a line's keys are not the answer's, in its order.
 */
export async function consolePage(
  s: SeriesStore,
  runId: number,
  logType: string | null,
  limit: number,
  offset: number,
): Promise<{ lines: ConsoleLine[]; total: number }> {
  const page = await s.listConsoleJson(runId, logType, limit, offset);
  const lines = page.lines.map((text) => {
    const o = JSON.parse(text) as Record<string, unknown> & ConsoleLine & { time: string };
    expect(Object.keys(o)).toEqual(CONSOLE_KEYS);
    expect(new Date(o.time).toISOString()).toBe(o.time);
    return { time: Date.parse(o.time), logType: o.logType, lineNumber: o.lineNumber, message: o.message, step: o.step };
  });
  return { lines, total: page.total };
}
