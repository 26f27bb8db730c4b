/**
 * FROZEN: the chunk encoding and statistics exactly as migration 8's upgrade wrote them,
 * copied from sql/chunks/chunk-codec.ts, sql/chunks/chunk-size.ts, domain/summary.ts and
 * domain/time-keyed.ts when the upgrade was frozen. Never change this file and never make it
 * import live code: a later change of the live codec must not change what an old migration
 * writes. The live decoder reads these bytes like every chunk it ever wrote (a stored format
 * outlives its writer).
 */

/** Points per chunk the upgrade cuts a series into. */
export const CHUNK_POINTS = 128;

/** True when the logName's points are keyed by (step, time): it starts with `sys/`. */
export function keyedByTime(logName: string): boolean {
  return logName.startsWith('sys/');
}

/** The second part of a point's key: its time in a series keyed by time, else 0. */
export function tieOf(byTime: boolean, time: number): number {
  return byTime ? time : 0;
}

/** A chunk's points in ascending (step, tie) order, in three parallel arrays. */
export interface ChunkPoints {
  steps: number[];
  times: number[];
  values: number[];
}

/** count, mean + meanLo (double-double), m2, min and max over the finite values. */
export interface Moments {
  count: number;
  mean: number;
  meanLo: number;
  m2: number;
  min: number;
  max: number;
}

/** A chunk's statistics, as stored beside its points. */
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

/*
 * The bytes of a chunk, little-endian, 8-byte aligned sections:
 *   header, 5 float64: n, first step, step stride (NaN: steps listed), first time, time form
 *   steps:  n float64, only when they are not first + i × stride
 *   values: n float64 (NaN and ±Infinity stand for themselves)
 *   times:  time form 1: n int32 offsets from the first time (padded to 8 bytes); 0: n float64
 */
const HEADER = 5;
const INT32_MAX = 2 ** 31 - 1;

/** The stride of the steps when each is the first plus i × stride, else NaN. */
function strideOf(steps: readonly number[]): number {
  const stride = steps.length > 1 ? steps[1]! - steps[0]! : 1;
  for (let i = 1; i < steps.length; i++) if (steps[i]! !== steps[0]! + i * stride) return NaN;
  return stride;
}

/** True when the times are whole int32 offsets from the first. */
function offsetsFit(times: readonly number[]): boolean {
  for (const t of times) {
    const d = t - times[0]!;
    if (!Number.isInteger(d) || d > INT32_MAX || d < -INT32_MAX) return false;
  }
  return true;
}

/** Returns the chunk's points packed as bytes (the layout above). */
export function encodeChunk(c: ChunkPoints): Buffer {
  const n = c.steps.length;
  const stride = strideOf(c.steps);
  const offsets = offsetsFit(c.times);
  const doubles = HEADER + (Number.isNaN(stride) ? n : 0) + n + (offsets ? Math.ceil(n / 2) : n);
  const packed = new Float64Array(doubles);
  packed.set([n, c.steps[0]!, stride, c.times[0]!, offsets ? 1 : 0]);
  let at = HEADER;
  if (Number.isNaN(stride)) for (let i = 0; i < n; i++) packed[at++] = c.steps[i]!;
  for (let i = 0; i < n; i++) packed[at++] = c.values[i]!;
  if (offsets) {
    const ints = new Int32Array(packed.buffer, at * 8, n);
    for (let i = 0; i < n; i++) ints[i] = c.times[i]! - c.times[0]!;
  } else for (let i = 0; i < n; i++) packed[at++] = c.times[i]!;
  return Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength);
}

/** Exact sum of a and b as [rounded sum, rounding error] (Knuth's TwoSum). */
function twoSum(a: number, b: number): [number, number] {
  const sum = a + b;
  const bPart = sum - a;
  return [sum, a - (sum - bPart) + (b - bPart)];
}

/** Returns `base + delta` (with `lo` correction) renormalised into mean and meanLo. */
function addToMean(base: number, lo: number, delta: number): { mean: number; meanLo: number } {
  const [sum, err] = twoSum(base, delta);
  const [mean, meanLo] = twoSum(sum, err + lo);
  return { mean, meanLo };
}

/** Returns the moments of the finite values by a corrected two-pass computation. */
function momentsOf(values: readonly number[]): Moments {
  let n = 0;
  let first = 0;
  let shifted = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const x of values) {
    if (!Number.isFinite(x)) continue;
    if (n++ === 0) first = x;
    shifted += x - first;
    if (x < min) min = x;
    if (x > max) max = x;
  }
  if (n === 0) return { count: 0, mean: 0, m2: 0, min: Infinity, max: -Infinity, meanLo: 0 };
  const rough = addToMean(first, 0, shifted / n);
  let squares = 0;
  let residual = 0;
  for (const x of values) {
    if (!Number.isFinite(x)) continue;
    const d = x - rough.mean - rough.meanLo;
    squares += d * d;
    residual += d;
  }
  const refined = addToMean(rough.mean, rough.meanLo, residual / n);
  return { count: n, ...refined, m2: Math.max(0, squares - (residual * residual) / n), min, max };
}

/** Returns the statistics of a chunk (at least one point); ties keep the lower step. */
export function chunkStats(c: ChunkPoints): ChunkStats {
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
  for (let i = 0; i < c.steps.length; i++) {
    const t = c.times[i]!;
    if (t < firstTime) firstTime = t;
    if (t > lastTime) lastTime = t;
    const v = c.values[i]!;
    if (!Number.isFinite(v)) continue;
    lastFiniteStep = c.steps[i]!;
    lastFiniteValue = v;
    if (minStep === null || v < min) {
      min = v;
      minStep = lastFiniteStep;
      minTime = t;
    }
    if (maxStep === null || v > max) {
      max = v;
      maxStep = lastFiniteStep;
      maxTime = t;
    }
  }
  return {
    points: c.steps.length,
    firstStep: c.steps[0]!,
    lastStep: c.steps[c.steps.length - 1]!,
    moments: momentsOf(c.values),
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
