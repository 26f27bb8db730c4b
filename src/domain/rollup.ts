import { emptyMoments, mergeMoments, momentsOf, type Moments } from './summary.js';

/**
 * Step-bucket rollups of a metric series: level k groups steps into aligned buckets of
 * BASE * FANOUT^k steps. Each node keeps its point count, first/last step, the moments of
 * its finite values and where its minimum and maximum are (lowest step on ties).
 */
export const ROLLUP_BASE = 16;
export const ROLLUP_FANOUT = 4;
/**
 * Bucket 0 of level 25 spans 2^54 steps, so every step the API accepts (0..2^53−1) lies
 * under a series' top bucket and any step range tiles into O(limit) buckets. (Level 11 was
 * the cap until issue 14: a step of 2^53−1 then tiled into ~134M level-11 buckets.)
 */
export const MAX_ROLLUP_LEVEL = 25;

/** Steps covered by one bucket of a level. */
export const widthOf = (level: number): number => ROLLUP_BASE * ROLLUP_FANOUT ** level;

/** The highest level a series with this top step keeps: the first whose bucket 0 covers it. */
export function topLevel(maxStep: number): number {
  let level = 0;
  while (level < MAX_ROLLUP_LEVEL && widthOf(level) <= maxStep) level++;
  return level;
}

export interface RollupNode {
  points: number;
  firstStep: number;
  lastStep: number;
  moments: Moments;
  minStep: number | null;
  maxStep: number | null;
  /** Times of the minimum and maximum points (null with their steps). */
  minTime: number | null;
  maxTime: number | null;
}

/** A point as rollups see it; time is needed only where the extremes' times are kept. */
export interface RollupPoint {
  step: number;
  value: number | null;
  time?: number;
}

/** A node of no points. */
export function emptyNode(): RollupNode {
  return {
    points: 0,
    firstStep: Infinity,
    lastStep: -Infinity,
    moments: emptyMoments(),
    minStep: null,
    maxStep: null,
    minTime: null,
    maxTime: null,
  };
}

/** The node of some points (any order, unique steps); null values are counted but not summarised. */
export function nodeOfPoints(points: readonly RollupPoint[]): RollupNode {
  const node = emptyNode();
  const values: number[] = [];
  let minAt: RollupPoint | null = null;
  let maxAt: RollupPoint | null = null;
  for (const p of points) {
    node.points++;
    if (p.step < node.firstStep) node.firstStep = p.step;
    if (p.step > node.lastStep) node.lastStep = p.step;
    if (p.value === null) continue;
    values.push(p.value);
    if (!minAt || p.value < minAt.value! || (p.value === minAt.value && p.step < minAt.step)) minAt = p;
    if (!maxAt || p.value > maxAt.value! || (p.value === maxAt.value && p.step < maxAt.step)) maxAt = p;
  }
  node.moments = momentsOf(values);
  node.minStep = minAt?.step ?? null;
  node.maxStep = maxAt?.step ?? null;
  node.minTime = minAt ? (minAt.time ?? null) : null;
  node.maxTime = maxAt ? (maxAt.time ?? null) : null;
  return node;
}

/** The node of two disjoint sets of points; ties of min/max go to the lower step. */
export function mergeNodes(a: RollupNode, b: RollupNode): RollupNode {
  if (b.points === 0) return a;
  if (a.points === 0) return b;
  const ma = a.moments;
  const mb = b.moments;
  /** True when a's extreme wins: the better value, or the lower step on a tie. */
  const aWins = (sa: number | null, va: number, sb: number | null, vb: number, lower: boolean): boolean => {
    if (sa === null) return false;
    if (sb === null || va === vb) return sb === null || sa < sb;
    return lower ? va < vb : va > vb;
  };
  const minA = aWins(a.minStep, ma.min, b.minStep, mb.min, true);
  const maxA = aWins(a.maxStep, ma.max, b.maxStep, mb.max, false);
  return {
    points: a.points + b.points,
    firstStep: Math.min(a.firstStep, b.firstStep),
    lastStep: Math.max(a.lastStep, b.lastStep),
    moments: mergeMoments(ma, mb),
    minStep: minA ? a.minStep : b.minStep,
    maxStep: maxA ? a.maxStep : b.maxStep,
    minTime: minA ? a.minTime : b.minTime,
    maxTime: maxA ? a.maxTime : b.maxTime,
  };
}

/** A piece of a step range: a whole rollup bucket, or a stretch of raw steps inside one base bucket. */
export type Tile =
  { level: number; bucket: number; from: number; to: number } | { level: -1; bucket: -1; from: number; to: number };

/**
 * Splits [from, to] into the fewest aligned buckets of levels ≤ maxLevel, left to right,
 * plus raw stretches (shorter than one base bucket) at the ends. Empty when from > to.
 */
export function tileRange(from: number, to: number, maxLevel: number): Tile[] {
  const tiles: Tile[] = [];
  let x = from;
  while (x <= to) {
    let level = maxLevel;
    while (level >= 0 && (x % widthOf(level) !== 0 || x + widthOf(level) - 1 > to)) level--;
    if (level < 0) {
      const end = Math.min(to, (Math.floor(x / ROLLUP_BASE) + 1) * ROLLUP_BASE - 1);
      tiles.push({ level: -1, bucket: -1, from: x, to: end });
      x = end + 1;
    } else {
      const w = widthOf(level);
      tiles.push({ level, bucket: x / w, from: x, to: x + w - 1 });
      x += w;
    }
  }
  return tiles;
}

/** The most tiles a sampled read may walk per step bucket it answers (plus a constant per level). */
const TILES_PER_GROUP = 4;

/**
 * The level a sampled read of [from, to] (part of a range of `span` steps cut into `groups`
 * step buckets) reads at from a series whose rollups go up to `top`: the coarsest level that
 * still gives about as many tiles as buckets (at least 80%, so answers use most of the limit).
 * Returns null when `top` is too low for that (rollups kept before level 25 existed, on a
 * series with steps ≥ 2^26): tiling would then take more than ~4 tiles per bucket.
 */
export function samplingLevel(from: number, to: number, span: number, groups: number, top: number): number | null {
  let level = 0;
  while (level < top && span / widthOf(level + 1) >= 0.8 * groups) level++;
  return tileBound(from, to, level) <= TILES_PER_GROUP * groups + tileBound(0, -1, MAX_ROLLUP_LEVEL) ? level : null;
}

/** An upper bound of tileRange(from, to, maxLevel).length, computed without tiling. */
export function tileBound(from: number, to: number, maxLevel: number): number {
  const middle = to < from ? 0 : Math.ceil((to - from + 1) / widthOf(maxLevel));
  return middle + 2 * (ROLLUP_FANOUT - 1) * (maxLevel + 1) + 2;
}
