/**
 * metric_chunks rows: their columns, reading them as ChunkStats / points, writing chunks.
 */
import type { ChunkPoints, ChunkStats } from './chunk-codec.js';
import { chunkStats, decodeChunk, encodeChunk } from './chunk-codec.js';
import type { SqlExecutor, SqlValue } from './sql-db.js';

/** A metric_chunks row as SELECT gives it (BIGINTs may be strings on some engines). */
export interface ChunkRow {
  first_step: number | string;
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
  'first_step, last_step, points, count, mean, mean_lo, m2, min_value, min_step, min_time, max_value, max_step, ' +
  'max_time, first_time, last_time, last_finite_step, last_finite_value';

/** Every column but series_id. */
export const CHUNK_COLUMNS = `${CHUNK_STAT_COLUMNS}, data`;

const UPSERT_CHUNK =
  `INSERT INTO metric_chunks (series_id, ${CHUNK_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ` +
  'ON CONFLICT (series_id, first_step) DO UPDATE SET last_step = excluded.last_step, points = excluded.points, ' +
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

/** Returns the UPSERT parameters of points [from, to) of a chunk of a series. */
export function chunkParams(seriesId: number, c: ChunkPoints, from = 0, to = c.steps.length): SqlValue[] {
  const s = chunkStats(c, from, to);
  const m = s.moments;
  const some = m.count > 0;
  return [
    seriesId,
    s.firstStep,
    s.lastStep,
    s.points,
    m.count,
    some ? m.mean : 0,
    some ? (m.meanLo ?? 0) : 0,
    some ? m.m2 : 0,
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

/** Writes chunks (rows of chunkParams), replacing those with the same series and first step. */
export async function upsertChunks(tx: SqlExecutor, rows: readonly SqlValue[][]): Promise<void> {
  if (rows.length > 0) await tx.runMany(UPSERT_CHUNK, rows);
}

/** Deletes chunks by [seriesId, firstStep]. */
export async function deleteChunks(tx: SqlExecutor, keys: readonly SqlValue[][]): Promise<void> {
  if (keys.length > 0) await tx.runMany('DELETE FROM metric_chunks WHERE series_id = ? AND first_step = ?', keys);
}

/** Returns the last chunk (highest steps) of a series with its points, or undefined. */
export function readTail(tx: SqlExecutor, seriesId: number): Promise<ChunkDataRow | undefined> {
  return tx.get<ChunkDataRow>(
    `SELECT ${CHUNK_COLUMNS} FROM metric_chunks WHERE series_id = ? ORDER BY first_step DESC LIMIT 1`,
    [seriesId],
  );
}

/**
 * Returns the chunk that holds (or would hold) a step: the last one starting at or before
 * it, else the series' first chunk; undefined when the series has none.
 */
export async function readHolding(tx: SqlExecutor, seriesId: number, step: number): Promise<ChunkDataRow | undefined> {
  const before = await tx.get<ChunkDataRow>(
    `SELECT ${CHUNK_COLUMNS} FROM metric_chunks WHERE series_id = ? AND first_step <= ? ORDER BY first_step DESC LIMIT 1`,
    [seriesId, step],
  );
  return (
    before ??
    tx.get<ChunkDataRow>(`SELECT ${CHUNK_COLUMNS} FROM metric_chunks WHERE series_id = ? ORDER BY first_step LIMIT 1`, [
      seriesId,
    ])
  );
}

/**
 * The WHERE clause (and its parameters) of the chunks of a series overlapping [stepMin,
 * stepMax], in one index range: from the last chunk starting at or before stepMin.
 */
export function overlapping(seriesId: number, stepMin: number, stepMax: number): { where: string; params: SqlValue[] } {
  return {
    where:
      'series_id = ? AND first_step >= COALESCE((SELECT MAX(first_step) FROM metric_chunks WHERE series_id = ? ' +
      'AND first_step <= ?), ?) AND first_step <= ?',
    params: [seriesId, seriesId, stepMin, stepMin, stepMax],
  };
}
