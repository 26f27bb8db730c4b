/**
 * Parameter importance for the sweep panels, computed in the browser: each config key's
 * Pearson correlation with the metric, and an importance from a small random forest of
 * regression trees fitted to predict the metric from all the keys (the share of the
 * forest's variance reduction made by splits on each key, summing to 1). A key's values
 * are numbers or categories; categories enter the trees as their index in sorted order.
 */
import { prng } from '@server/domain/prng';

/** One feature column: a number per run, or NaN where the run has no value. */
export type Column = readonly number[];

/** Pearson correlation of `xs` and `ys` over the pairs where both are finite; null when fewer than 3 or no spread. */
export function correlation(xs: Column, ys: Column): number | null {
  let n = 0;
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < xs.length; i++) {
    if (Number.isFinite(xs[i]) && Number.isFinite(ys[i])) {
      n++;
      sx += xs[i]!;
      sy += ys[i]!;
    }
  }
  if (n < 3) return null;
  const mx = sx / n;
  const my = sy / n;
  let cxy = 0;
  let cxx = 0;
  let cyy = 0;
  for (let i = 0; i < xs.length; i++) {
    if (!Number.isFinite(xs[i]) || !Number.isFinite(ys[i])) continue;
    const dx = xs[i]! - mx;
    const dy = ys[i]! - my;
    cxy += dx * dy;
    cxx += dx * dx;
    cyy += dy * dy;
  }
  if (cxx <= 0 || cyy <= 0) return null;
  return Math.max(-1, Math.min(1, cxy / Math.sqrt(cxx * cyy)));
}

export interface ForestOptions {
  trees?: number;
  depth?: number;
  /** Fewest runs in a leaf. */
  minLeaf?: number;
  seed?: number;
}

/** The sum of squared deviations of the rows' metric from their mean. */
const spread = (ys: Column, rows: readonly number[]) => {
  let s = 0;
  let s2 = 0;
  for (const r of rows) {
    s += ys[r]!;
    s2 += ys[r]! * ys[r]!;
  }
  return s2 - (s * s) / Math.max(1, rows.length);
};

/** Grows one tree on `rows`, adding each split's variance reduction to `gain[feature]`. */
function grow(
  features: readonly Column[],
  ys: Column,
  rows: number[],
  depth: number,
  minLeaf: number,
  tried: number,
  random: () => number,
  gain: number[],
): void {
  if (depth === 0 || rows.length < 2 * minLeaf) return;
  if (spread(ys, rows) <= 0) return;
  // A random subset of the features, as a random forest does.
  const order = features.map((_, f) => f).sort(() => random() - 0.5);
  let best: { f: number; cut: number; left: number[]; right: number[]; gain: number } | undefined;
  for (const f of order.slice(0, tried)) {
    const col = features[f]!;
    const sorted = rows.filter((r) => Number.isFinite(col[r])).sort((a, b) => col[a]! - col[b]!);
    if (sorted.length < 2 * minLeaf) continue;
    // Running sums give every cut's variance in one pass.
    let ls = 0;
    let ls2 = 0;
    let ts = 0;
    let ts2 = 0;
    for (const r of sorted) {
      ts += ys[r]!;
      ts2 += ys[r]! * ys[r]!;
    }
    for (let i = 0; i < sorted.length - 1; i++) {
      const y = ys[sorted[i]!]!;
      ls += y;
      ls2 += y * y;
      const nl = i + 1;
      const nr = sorted.length - nl;
      if (nl < minLeaf || nr < minLeaf) continue;
      const a = col[sorted[i]!]!;
      const b = col[sorted[i + 1]!]!;
      if (a === b) continue;
      const child = ls2 - (ls * ls) / nl + (ts2 - ls2) - ((ts - ls) * (ts - ls)) / nr;
      const g = ts2 - (ts * ts) / sorted.length - child;
      if (!best || g > best.gain) best = { f, cut: (a + b) / 2, left: [], right: [], gain: g };
    }
  }
  if (!best || best.gain <= 0) return;
  const col = features[best.f]!;
  for (const r of rows) (col[r]! <= best.cut ? best.left : best.right).push(r);
  gain[best.f]! += best.gain;
  grow(features, ys, best.left, depth - 1, minLeaf, tried, random, gain);
  grow(features, ys, best.right, depth - 1, minLeaf, tried, random, gain);
}

/**
 * Each feature's share (0..1, summing to 1; all 0 when no split helps) of the variance
 * reduction of a random forest (default 50 trees of depth 4, leaves of at least 2 runs,
 * bootstrap samples, a third of the features tried per split, at least 1) fitted to `ys`.
 * Runs whose metric is not finite are left out; a missing feature value (NaN) never
 * takes a split. The same inputs and seed give the same answer.
 */
export function forestImportance(features: readonly Column[], ys: Column, options: ForestOptions = {}): number[] {
  const { trees = 50, depth = 4, minLeaf = 2, seed = 1 } = options;
  const gain = features.map(() => 0);
  const rows = ys.flatMap((y, i) => (Number.isFinite(y) ? [i] : []));
  if (rows.length < 2 * minLeaf || features.length === 0) return gain;
  const random = prng(seed);
  const tried = Math.max(1, Math.round(features.length / 3));
  for (let t = 0; t < trees; t++) {
    const sample = rows.map(() => rows[Math.floor(random() * rows.length)]!);
    grow(features, ys, sample, depth, minLeaf, tried, random, gain);
  }
  const total = gain.reduce((a, b) => a + b, 0);
  return total > 0 ? gain.map((g) => g / total) : gain;
}
