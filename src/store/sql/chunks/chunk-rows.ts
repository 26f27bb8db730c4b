/**
 * metric_chunks rows: their columns, reading them as ChunkStats / points, writing chunks.
 * A chunk is keyed by its first point's (step, tie): tie is 0 except in series keyed by
 * (step, time), where it is the first point's time (migration 008, domain/time-keyed.ts).
 */
import { tieOf } from '../../../domain/time-keyed.js';
import type { ChunkPoints, ChunkStats } from './chunk-codec.js';
import type { Moments } from '../../../domain/summary.js';
import { chunkStats, decodeChunk, encodeChunk } from './chunk-codec.js';
import type { SqlExecutor } from '../db.js';
import type { SqlValue } from '../sql-value.js';

/** A metric_chunks row as SELECT gives it (BIGINTs may be strings on some engines). */
export interface ChunkRow {
  first_step: number | string;
  first_tie: number | string;
  last_step: number | string;
  points: number | string;
  count: number | string;
  mean: number | null;
  mean_lo: number | null;
  m2: number | null;
  min_value: number | null;
  min_step: number | string | null;
  min_time: number | string | null;
  max_value: number | null;
  max_step: number | string | null;
  max_time: number | string | null;
  first_time: number | string;
  last_time: number | string;
  last_finite_step: number | string | null;
  last_finite_value: number | null;
}

/** A row with its packed points. */
export interface ChunkDataRow extends ChunkRow {
  data: Uint8Array;
}

/** The statistics columns (no points), for SELECT lists. */
export const CHUNK_STAT_COLUMNS =
  'first_step, first_tie, last_step, points, count, mean, mean_lo, m2, min_value, min_step, min_time, max_value, max_step, ' +
  'max_time, first_time, last_time, last_finite_step, last_finite_value';

/** Every column but series_id. */
export const CHUNK_COLUMNS = `${CHUNK_STAT_COLUMNS}, data`;

/** Writes a chunk (parameters from chunkParams or statsParams), replacing the one with the same series and key. */
export const UPSERT_CHUNK =
  `INSERT INTO metric_chunks (series_id, ${CHUNK_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ` +
  'ON CONFLICT (series_id, first_step, first_tie) DO UPDATE SET last_step = excluded.last_step, points = excluded.points, ' +
  'count = excluded.count, mean = excluded.mean, mean_lo = excluded.mean_lo, m2 = excluded.m2, ' +
  'min_value = excluded.min_value, min_step = excluded.min_step, min_time = excluded.min_time, ' +
  'max_value = excluded.max_value, max_step = excluded.max_step, max_time = excluded.max_time, ' +
  'first_time = excluded.first_time, last_time = excluded.last_time, last_finite_step = excluded.last_finite_step, ' +
  'last_finite_value = excluded.last_finite_value, data = excluded.data';

const num = (v: number | string | null): number | null => (v === null ? null : Number(v));

/** Returns the statistics stored in a row. */
export function rowStats(r: ChunkRow): ChunkStats {
  const count = Number(r.count);
  return {
    points: Number(r.points),
    firstStep: Number(r.first_step),
    lastStep: Number(r.last_step),
    moments: {
      count,
      mean: r.mean === null ? NaN : Number(r.mean),
      meanLo: r.mean_lo === null ? NaN : Number(r.mean_lo),
      m2: r.m2 === null ? NaN : Number(r.m2),
      min: count > 0 && r.min_value !== null ? Number(r.min_value) : Infinity,
      max: count > 0 && r.max_value !== null ? Number(r.max_value) : -Infinity,
    },
    minStep: num(r.min_step),
    minTime: num(r.min_time),
    maxStep: num(r.max_step),
    maxTime: num(r.max_time),
    firstTime: Number(r.first_time),
    lastTime: Number(r.last_time),
    lastFiniteStep: num(r.last_finite_step),
    lastFiniteValue: r.last_finite_value === null ? null : Number(r.last_finite_value),
  };
}

/** Returns the points of a row with data. */
export const rowPoints = (r: ChunkDataRow): ChunkPoints => decodeChunk(r.data);

/** A chunk's key: its first point's step and tie. */
export interface ChunkKey {
  step: number;
  tie: number;
}

/** Returns the key of a row. */
export const rowKey = (r: ChunkRow): ChunkKey => ({ step: Number(r.first_step), tie: Number(r.first_tie) });

/** Returns the key of the chunk that starts at point i of c. */
export const keyAt = (c: ChunkPoints, i: number, byTime: boolean): ChunkKey => ({
  step: c.steps[i]!,
  tie: tieOf(byTime, c.times[i]!),
});

/** Returns the UPSERT parameters of points [from, to) of a chunk of a series. */
export function chunkParams(
  seriesId: number,
  c: ChunkPoints,
  byTime: boolean,
  from = 0,
  to = c.steps.length,
): SqlValue[] {
  return statsParams(seriesId, c, byTime, chunkStats(c, from, to), from, to);
}

/** The count, mean, mean_lo and m2 columns of moments. */
function momentParams(m: Moments): SqlValue[] {
  const some = m.count > 0;
  return [m.count, some ? m.mean : 0, some ? (m.meanLo ?? 0) : 0, some ? m.m2 : 0];
}

/** Returns the UPSERT parameters of points [from, to) of a chunk whose statistics are `s`. */
export function statsParams(
  seriesId: number,
  c: ChunkPoints,
  byTime: boolean,
  s: ChunkStats,
  from: number,
  to: number,
): SqlValue[] {
  const m = s.moments;
  const some = m.count > 0;
  return [
    seriesId,
    s.firstStep,
    tieOf(byTime, c.times[from]!),
    s.lastStep,
    s.points,
    ...momentParams(m),
    some ? m.min : null,
    s.minStep,
    s.minTime,
    some ? m.max : null,
    s.maxStep,
    s.maxTime,
    s.firstTime,
    s.lastTime,
    s.lastFiniteStep,
    s.lastFiniteValue,
    encodeChunk(c, from, to),
  ];
}

/**
 * Rewrites a stored chunk whose step range, point count and extremes are unchanged (a
 * re-logged value that is neither its minimum nor maximum): only columns outside the
 * metric_chunk_extremes index are set, so the index is not touched (and PostgreSQL can
 * update the row in place).
 */
const UPDATE_CHUNK_BODY =
  'UPDATE metric_chunks SET count = ?, mean = ?, mean_lo = ?, m2 = ?, first_time = ?, last_time = ?, ' +
  'last_finite_step = ?, last_finite_value = ?, data = ? WHERE series_id = ? AND first_step = ? AND first_tie = ?';

/** True when two statistics of one chunk agree on every column of the metric_chunk_extremes index. */
export function sameExtremes(a: ChunkStats, b: ChunkStats): boolean {
  return (
    a.lastStep === b.lastStep &&
    a.points === b.points &&
    a.moments.count > 0 === b.moments.count > 0 &&
    a.moments.min === b.moments.min &&
    a.minStep === b.minStep &&
    a.minTime === b.minTime &&
    a.moments.max === b.moments.max &&
    a.maxStep === b.maxStep &&
    a.maxTime === b.maxTime
  );
}

/** Returns the UPDATE_CHUNK_BODY parameters of points [from, to) of a stored chunk whose statistics are `s`. */
export function bodyParams(
  seriesId: number,
  c: ChunkPoints,
  byTime: boolean,
  s: ChunkStats,
  from: number,
  to: number,
): SqlValue[] {
  return [
    ...momentParams(s.moments),
    s.firstTime,
    s.lastTime,
    s.lastFiniteStep,
    s.lastFiniteValue,
    encodeChunk(c, from, to),
    seriesId,
    s.firstStep,
    tieOf(byTime, c.times[from]!),
  ];
}

/** Rewrites stored chunks in place (rows of bodyParams): their extremes are unchanged. Throws when one is missing. */
export async function updateChunkBodies(tx: SqlExecutor, rows: readonly SqlValue[][]): Promise<void> {
  if (rows.length === 0) return;
  const changed = await tx.runMany(UPDATE_CHUNK_BODY, rows);
  if (changed !== rows.length) throw new Error(`${rows.length - changed} chunk(s) to rewrite in place were not found`);
}

/** Writes chunks (rows of chunkParams), replacing those with the same series and key. */
export async function upsertChunks(tx: SqlExecutor, rows: readonly SqlValue[][]): Promise<void> {
  if (rows.length > 0) await tx.runMany(UPSERT_CHUNK, rows);
}

/** Deletes chunks by [seriesId, firstStep, firstTie]. */
export async function deleteChunks(tx: SqlExecutor, keys: readonly SqlValue[][]): Promise<void> {
  if (keys.length > 0) {
    await tx.runMany('DELETE FROM metric_chunks WHERE series_id = ? AND first_step = ? AND first_tie = ?', keys);
  }
}

/** Returns the last chunk (highest keys) of a series with its points, or undefined. */
export function readTail(tx: SqlExecutor, seriesId: number): Promise<ChunkDataRow | undefined> {
  return tx.get<ChunkDataRow>(
    `SELECT ${CHUNK_COLUMNS} FROM metric_chunks WHERE series_id = ? ORDER BY first_step DESC, first_tie DESC LIMIT 1`,
    [seriesId],
  );
}

/** Returns the chunk of a series with this key, with its points, or undefined. */
export function readChunk(tx: SqlExecutor, seriesId: number, key: ChunkKey): Promise<ChunkDataRow | undefined> {
  return tx.get<ChunkDataRow>(
    `SELECT ${CHUNK_COLUMNS} FROM metric_chunks WHERE series_id = ? AND first_step = ? AND first_tie = ?`,
    [seriesId, key.step, key.tie],
  );
}

/**
 * Returns the chunk that holds (or would hold) a point of key (step, tie): the last one
 * starting at or before it, else the series' first chunk; undefined when the series has none.
 */
export async function readHolding(
  tx: SqlExecutor,
  seriesId: number,
  step: number,
  tie: number,
): Promise<ChunkDataRow | undefined> {
  const before = await tx.get<ChunkDataRow>(
    `SELECT ${CHUNK_COLUMNS} FROM metric_chunks WHERE series_id = ? AND first_step <= ? ` +
      'AND (first_step < ? OR first_tie <= ?) ORDER BY first_step DESC, first_tie DESC LIMIT 1',
    [seriesId, step, step, tie],
  );
  return (
    before ??
    tx.get<ChunkDataRow>(
      `SELECT ${CHUNK_COLUMNS} FROM metric_chunks WHERE series_id = ? ORDER BY first_step, first_tie LIMIT 1`,
      [seriesId],
    )
  );
}

/**
 * The WHERE clause (and its parameters) of the chunks of a series that may hold points with
 * step in [stepMin, stepMax], in one index range: from the last chunk starting at or before
 * (stepMin, 0) — exactly the chunks overlapping the range when ties are 0; in a series keyed
 * by time also the earlier chunks starting at that chunk's step (readers filter by step).
 * After `after` (a chunk key), only later chunks (paging).
 */
export function overlapping(
  seriesId: number,
  stepMin: number,
  stepMax: number,
  after?: ChunkKey,
): { where: string; params: SqlValue[] } {
  if (after) {
    return {
      where: 'series_id = ? AND first_step >= ? AND (first_step > ? OR first_tie > ?) AND first_step <= ?',
      params: [seriesId, after.step, after.step, after.tie, stepMax],
    };
  }
  return {
    where:
      'series_id = ? AND first_step >= COALESCE((SELECT first_step FROM metric_chunks WHERE series_id = ? ' +
      'AND first_step <= ? AND (first_step < ? OR first_tie = 0) ORDER BY first_step DESC, first_tie DESC LIMIT 1), ?) ' +
      'AND first_step <= ?',
    params: [seriesId, seriesId, stepMin, stepMin, stepMin, stepMax],
  };
}
