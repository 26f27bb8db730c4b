/**
 * The pieces sampling folds into step buckets (chunk-sample.ts): a run of a chunk's points in
 * one bucket with their count, step bounds and extremes, made from an index row or from the
 * chunk's bytes, read in place (no decoded copy, no object per point).
 */
import type { ChunkKey } from './chunk-rows.js';
import type { SqlValue } from '../sql-value.js';
import type { StoredPoint } from '../metrics/series-row.js';

/** What sampling needs of a chunk's points in range: where they are and their extremes. */
export interface Piece {
  seriesId: number;
  key: ChunkKey;
  points: number;
  firstStep: number;
  lastStep: number;
  minValue: number;
  minStep: number | null;
  minTime: number;
  maxValue: number;
  maxStep: number | null;
  maxTime: number;
}

/**
 * The columns sampling reads per chunk, all held by the index metric_chunk_extremes (migration
 * 008), so the read never touches the rows' points. Rows come as arrays (allArrays) in this order.
 */
export const EXTREME_COLUMNS =
  'first_step, first_tie, last_step, points, min_value, min_step, min_time, max_value, max_step, max_time';

/** A row of EXTREME_COLUMNS. */
export type ExtremeRow = SqlValue[];

export const stepOfRow = (r: ExtremeRow): number => Number(r[0]);
export const lastStepOfRow = (r: ExtremeRow): number => Number(r[2]);
export const keyOfRow = (r: ExtremeRow): ChunkKey => ({ step: Number(r[0]), tie: Number(r[1]) });

/** The piece of a whole chunk from its index row (its extremes over finite values). */
export function pieceOfRow(seriesId: number, r: ExtremeRow): Piece {
  const some = r[4] !== null && r[5] !== null;
  return {
    seriesId,
    key: keyOfRow(r),
    points: Number(r[3]),
    firstStep: Number(r[0]),
    lastStep: Number(r[2]),
    minValue: some ? Number(r[4]) : Infinity,
    minStep: some ? Number(r[5]) : null,
    minTime: some ? Number(r[6]) : 0,
    maxValue: some ? Number(r[7]) : -Infinity,
    maxStep: some ? Number(r[8]) : null,
    maxTime: some ? Number(r[9]) : 0,
  };
}

/** Folds piece b (later steps) into a; ties of the minimum and maximum keep the lower step. */
export function absorb(a: Piece, b: Piece): void {
  a.points += b.points;
  a.lastStep = b.lastStep;
  if (b.minStep !== null && (a.minStep === null || b.minValue < a.minValue)) {
    [a.minValue, a.minStep, a.minTime] = [b.minValue, b.minStep, b.minTime];
  }
  if (b.maxStep !== null && (a.maxStep === null || b.maxValue > a.maxValue)) {
    [a.maxValue, a.maxStep, a.maxTime] = [b.maxValue, b.maxStep, b.maxTime];
  }
}

/** Folds an index row (later steps) into a, as absorb does, without making a piece of it. */
export function absorbRow(a: Piece, r: ExtremeRow): void {
  a.points += Number(r[3]);
  a.lastStep = Number(r[2]);
  if (r[4] === null || r[5] === null) return;
  const min = Number(r[4]);
  const max = Number(r[7]);
  if (a.minStep === null || min < a.minValue) [a.minValue, a.minStep, a.minTime] = [min, Number(r[5]), Number(r[6])];
  if (a.maxStep === null || max > a.maxValue) [a.maxValue, a.maxStep, a.maxTime] = [max, Number(r[8]), Number(r[9])];
}

/** The float64 words of chunk bytes: a view when they are 8-byte aligned, else an aligned copy. */
function wordsOf(bytes: Uint8Array): Float64Array {
  if (bytes.byteOffset % 8 === 0) return new Float64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 3);
  return new Float64Array(bytes.slice().buffer, 0, bytes.byteLength >> 3);
}

/**
 * Adds the pieces of a chunk's points with step in [from, to] straight from its bytes (the
 * layout of chunk-codec.ts), but for `ends` (the range's first and last point): one per bucket
 * they fall in (bucketOf, ascending in step), each with its extremes over finite values (ties
 * keep the lower step). The same pieces as bucketing the decoded points one by one.
 */
export function pushPiecesOfBytes(
  add: (p: Piece) => void,
  seriesId: number,
  key: ChunkKey,
  bytes: Uint8Array,
  from: number,
  to: number,
  bucketOf: (step: number) => number,
  ends: readonly StoredPoint[],
): void {
  const f = wordsOf(bytes);
  const n = f[0]!;
  const step0 = f[1]!;
  const stride = f[2]!;
  const time0 = f[3]!;
  const listed = Number.isNaN(stride);
  const valuesAt = 5 + (listed ? n : 0);
  const timesAt = valuesAt + n;
  const offsets = f[4] === 1 ? new Int32Array(f.buffer, f.byteOffset + timesAt * 8, n) : null;
  const stepOf = (i: number): number => (listed ? f[5 + i]! : step0 + i * stride);
  const timeOf = (i: number): number => (offsets ? time0 + offsets[i]! : f[timesAt + i]!);
  const a = ends[0];
  const z = ends[ends.length - 1];
  // The first point with step >= from (steps ascend).
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (stepOf(mid) < from) lo = mid + 1;
    else hi = mid;
  }
  let bucket = -1;
  let count = 0;
  let first = 0;
  let last = 0;
  let minAt = -1;
  let maxAt = -1;
  let min = Infinity;
  let max = -Infinity;
  const flush = (): void => {
    if (count === 0) return;
    add({
      seriesId,
      key,
      points: count,
      firstStep: first,
      lastStep: last,
      minValue: min,
      minStep: minAt < 0 ? null : stepOf(minAt),
      minTime: minAt < 0 ? 0 : timeOf(minAt),
      maxValue: max,
      maxStep: maxAt < 0 ? null : stepOf(maxAt),
      maxTime: maxAt < 0 ? 0 : timeOf(maxAt),
    });
  };
  for (let i = lo; i < n; i++) {
    const step = stepOf(i);
    if (step > to) break;
    if ((step === a?.step && timeOf(i) === a.time) || (step === z?.step && timeOf(i) === z.time)) continue;
    const b = bucketOf(step);
    if (count === 0 || b !== bucket) {
      flush();
      bucket = b;
      count = 0;
      first = step;
      minAt = -1;
      maxAt = -1;
      min = Infinity;
      max = -Infinity;
    }
    count++;
    last = step;
    const value = f[valuesAt + i]!;
    if (value - value !== 0) continue; // NaN or ±Infinity
    if (minAt < 0 || value < min) {
      min = value;
      minAt = i;
    }
    if (maxAt < 0 || value > max) {
      max = value;
      maxAt = i;
    }
  }
  flush();
}
