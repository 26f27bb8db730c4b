/**
 * The packed form of a metric chunk: its points as one little-endian Float64Array of
 * steps, then times, then values (NaN and ±Infinity stand for themselves), and the exact
 * statistics stored beside it.
 */
import { momentsOf, type Moments } from '../../domain/summary.js';
import { compareKeys, tieOf } from '../../domain/time-keyed.js';

/**
 * A chunk's points in ascending (step, tie) order (tie: the time in a series keyed by time,
 * else 0, see domain/time-keyed.ts), in three parallel arrays.
 */
export interface ChunkPoints {
  steps: number[];
  times: number[];
  values: number[];
}

/** A chunk's statistics: step and time bounds, moments over finite values, where min/max are. */
export interface ChunkStats {
  points: number;
  firstStep: number;
  lastStep: number;
  moments: Moments;
  minStep: number | null;
  minTime: number | null;
  maxStep: number | null;
  maxTime: number | null;
  firstTime: number;
  lastTime: number;
  lastFiniteStep: number | null;
  lastFiniteValue: number | null;
}

/** Returns points [from, to) of the chunk packed as bytes. */
export function encodeChunk(c: ChunkPoints, from = 0, to = c.steps.length): Buffer {
  const n = to - from;
  const packed = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    packed[i] = c.steps[from + i]!;
    packed[n + i] = c.times[from + i]!;
    packed[2 * n + i] = c.values[from + i]!;
  }
  return Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength);
}

/** Returns the points packed in bytes made by encodeChunk. */
export function decodeChunk(bytes: Uint8Array): ChunkPoints {
  const aligned = new Uint8Array(bytes.byteLength);
  aligned.set(bytes);
  const packed = new Float64Array(aligned.buffer, 0, Math.floor(bytes.byteLength / 8));
  const n = packed.length / 3;
  return {
    steps: Array.from(packed.subarray(0, n)),
    times: Array.from(packed.subarray(n, 2 * n)),
    values: Array.from(packed.subarray(2 * n, 3 * n)),
  };
}

/** Returns the statistics of points [from, to) of a chunk (at least one point); ties keep the lower step. */
export function chunkStats(c: ChunkPoints, from = 0, to = c.steps.length): ChunkStats {
  const finite: number[] = [];
  let minStep: number | null = null;
  let minTime: number | null = null;
  let maxStep: number | null = null;
  let maxTime: number | null = null;
  let min = Infinity;
  let max = -Infinity;
  let firstTime = Infinity;
  let lastTime = -Infinity;
  let lastFiniteStep: number | null = null;
  let lastFiniteValue: number | null = null;
  for (let i = from; i < to; i++) {
    const t = c.times[i]!;
    if (t < firstTime) firstTime = t;
    if (t > lastTime) lastTime = t;
    const v = c.values[i]!;
    if (!Number.isFinite(v)) continue;
    finite.push(v);
    lastFiniteStep = c.steps[i]!;
    lastFiniteValue = v;
    if (minStep === null || v < min) [min, minStep, minTime] = [v, c.steps[i]!, t];
    if (maxStep === null || v > max) [max, maxStep, maxTime] = [v, c.steps[i]!, t];
  }
  return {
    points: to - from,
    firstStep: c.steps[from]!,
    lastStep: c.steps[to - 1]!,
    moments: momentsOf(finite),
    minStep,
    minTime,
    maxStep,
    maxTime,
    firstTime,
    lastTime,
    lastFiniteStep,
    lastFiniteValue,
  };
}

/** Returns the index of the first step >= step in ascending steps (steps.length when none). */
export function lowerBound(steps: readonly number[], step: number): number {
  let lo = 0;
  let hi = steps.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (steps[mid]! < step) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Returns the index of the first point whose (step, tie) key is >= (step, tie) in a chunk
 * (its length when none); tie as tieOf(byTime, time).
 */
export function lowerBoundKey(c: ChunkPoints, byTime: boolean, step: number, tie: number): number {
  if (!byTime) return lowerBound(c.steps, step);
  let lo = 0;
  let hi = c.steps.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(c.steps[mid]!, tieOf(true, c.times[mid]!), step, tie) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
