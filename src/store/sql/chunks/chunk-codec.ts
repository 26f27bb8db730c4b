/**
 * The packed form of a metric chunk (its steps, times and values; the layout is below) and
 * the exact statistics stored beside it.
 */
import { momentsOfRange, type Moments } from '../../../domain/summary.js';
import { compareKeys, tieOf } from '../../../domain/time-keyed.js';

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

/*
 * The bytes of a chunk, little-endian, 8-byte aligned sections:
 *   header, 5 float64: n, first step, step stride (NaN: steps listed), first time, time form
 *   steps:  n float64, only when they are not first + i × stride
 *   values: n float64 (NaN and ±Infinity stand for themselves)
 *   times:  time form 1: n int32 offsets from the first time (padded to 8 bytes); 0: n float64
 * Steps logged one after another and whole-millisecond times within ±24 days of the first
 * (the usual case) take 12 bytes a point instead of 24: half the bytes each tail rewrite
 * writes to the WAL and each sampled read scans.
 */
const HEADER = 5;
const INT32_MAX = 2 ** 31 - 1;

/** The stride of steps [from, to) when each is the first plus i × stride, else NaN. */
function strideOf(steps: ArrayLike<number>, from: number, to: number): number {
  const stride = to - from > 1 ? steps[from + 1]! - steps[from]! : 1;
  for (let i = from + 1; i < to; i++) if (steps[i]! !== steps[from]! + (i - from) * stride) return NaN;
  return stride;
}

/** True when times [from, to) are whole int32 offsets from the first. */
function offsetsFit(times: ArrayLike<number>, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const d = times[i]! - times[from]!;
    if (!Number.isInteger(d) || d > INT32_MAX || d < -INT32_MAX) return false;
  }
  return true;
}

/** Returns points [from, to) of the chunk packed as bytes (the layout above). */
export function encodeChunk(c: ChunkView, from = 0, to = c.steps.length): Buffer {
  const n = to - from;
  const stride = strideOf(c.steps, from, to);
  const offsets = offsetsFit(c.times, from, to);
  const doubles = HEADER + (Number.isNaN(stride) ? n : 0) + n + (offsets ? Math.ceil(n / 2) : n);
  const packed = new Float64Array(doubles);
  packed.set([n, c.steps[from]!, stride, c.times[from]!, offsets ? 1 : 0]);
  let at = HEADER;
  if (Number.isNaN(stride)) for (let i = 0; i < n; i++) packed[at++] = c.steps[from + i]!;
  for (let i = 0; i < n; i++) packed[at++] = c.values[from + i]!;
  if (offsets) {
    const ints = new Int32Array(packed.buffer, at * 8, n);
    for (let i = 0; i < n; i++) ints[i] = c.times[from + i]! - c.times[from]!;
  } else for (let i = 0; i < n; i++) packed[at++] = c.times[from + i]!;
  return Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength);
}

/** A read-only view of a chunk's points, in the order of ChunkPoints. */
export interface ChunkView {
  readonly steps: ArrayLike<number>;
  readonly times: ArrayLike<number>;
  readonly values: ArrayLike<number>;
}

/**
 * Returns the points packed in bytes made by encodeChunk as typed arrays: one allocation of
 * 3n doubles holding steps, times and values (no per-point objects, no aligned copy first).
 */
export function viewChunk(bytes: Uint8Array): ChunkView {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const f64 = (index: number): number => view.getFloat64(index * 8, true);
  const n = f64(0);
  const firstStep = f64(1);
  const stride = f64(2);
  const firstTime = f64(3);
  const form = f64(4);
  const out = new Float64Array(3 * n);
  const steps = out.subarray(0, n);
  const times = out.subarray(n, 2 * n);
  const values = out.subarray(2 * n, 3 * n);
  let at = HEADER;
  if (Number.isNaN(stride)) {
    for (let i = 0; i < n; i++) steps[i] = f64(at + i);
    at += n;
  } else for (let i = 0; i < n; i++) steps[i] = firstStep + i * stride;
  for (let i = 0; i < n; i++) values[i] = f64(at + i);
  at += n;
  if (form === 1) for (let i = 0; i < n; i++) times[i] = firstTime + view.getInt32(at * 8 + i * 4, true);
  else for (let i = 0; i < n; i++) times[i] = f64(at + i);
  return { steps, times, values };
}

/** Returns the points packed in bytes made by encodeChunk, as arrays a writer may change. */
export function decodeChunk(bytes: Uint8Array): ChunkPoints {
  const v = viewChunk(bytes);
  return { steps: Array.from(v.steps), times: Array.from(v.times), values: Array.from(v.values) };
}

/** Returns the statistics of points [from, to) of a chunk (at least one point); ties keep the lower step. */
export function chunkStats(c: ChunkPoints, from = 0, to = c.steps.length): ChunkStats {
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
    points: to - from,
    firstStep: c.steps[from]!,
    lastStep: c.steps[to - 1]!,
    moments: momentsOfRange(c.values, from, to),
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
export function lowerBound(steps: ArrayLike<number>, step: number): number {
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
