/**
 * The `series` row and `metric_points` encodings shared by the SQL series store: a series'
 * summary state, its conversion to a SeriesSummary, and the non-finite value flags.
 */
import type { MetricPoint, SeriesExtent, SeriesSummary } from '../../domain/types.js';
import { emptyMoments, type Moments } from '../../domain/summary.js';
import type { SqlExecutor, SqlValue } from './sql-db.js';

/** A series row as SELECT gives it (BIGINT columns may come back as strings on some engines). */
export interface SeriesRow {
  id: number | string;
  run_id: number | string;
  log_name: string;
  log_group: string;
  count: number | string;
  mean: number | null;
  mean_lo: number | null;
  m2: number | null;
  min_value: number | null;
  max_value: number | null;
  last_step: number | string | null;
  last_value: number | null;
  points: number | string;
  first_step: number | string | null;
  max_step: number | string | null;
  first_time: number | string | null;
  last_time: number | string | null;
  /** Random token replaced by every write of the series (see tail-cache.ts). */
  version: number | string;
}

/** The columns of SeriesRow, for SELECT lists (seriesRows reads them in this order). */
export const SERIES_COLUMNS =
  'id, run_id, log_name, log_group, count, mean, mean_lo, m2, min_value, max_value, last_step, last_value, ' +
  'points, first_step, max_step, first_time, last_time, version';

/**
 * Returns the rows of a `SELECT ${SERIES_COLUMNS} …` query as SeriesRows. The rows come as
 * arrays (SqlExecutor.allArrays) and are shaped here: about half the time of the driver's
 * objects for the 1,000-series reads of statistics and ingest.
 */
export async function seriesRows(tx: SqlExecutor, sql: string, params: readonly SqlValue[]): Promise<SeriesRow[]> {
  return (await tx.allArrays(sql, params)).map((r) => ({
    id: r[0] as number,
    run_id: r[1] as number,
    log_name: r[2] as string,
    log_group: r[3] as string,
    count: r[4] as number,
    mean: r[5] as number | null,
    mean_lo: r[6] as number | null,
    m2: r[7] as number | null,
    min_value: r[8] as number | null,
    max_value: r[9] as number | null,
    last_step: r[10] as number | null,
    last_value: r[11] as number | null,
    points: r[12] as number,
    first_step: r[13] as number | null,
    max_step: r[14] as number | null,
    first_time: r[15] as number | null,
    last_time: r[16] as number | null,
    version: r[17] as number,
  }));
}

/** A series' summary in computing form: moments over finite values plus its extent. */
export interface SeriesState extends SeriesExtent {
  moments: Moments;
}

/** A point as stored: value null with flag 1 (NaN), 2 (+Infinity) or 3 (-Infinity); else flag 0. */
export interface StoredPoint {
  step: number;
  time: number;
  value: number | null;
  flag: number;
}

/** Largest bound passed to the database for an unbounded step (Infinity is not portable). */
export const STEP_BOUND = Number.MAX_SAFE_INTEGER;

/** Returns the step clamped to what every engine can bind as BIGINT. */
export function clampStep(step: number): number {
  return Math.max(-STEP_BOUND, Math.min(STEP_BOUND, step));
}

const nullableNumber = (v: number | string | null): number | null => (v === null ? null : Number(v));

/** Returns the state of no points. */
export function emptyState(): SeriesState {
  return {
    moments: emptyMoments(),
    lastStep: null,
    lastValue: null,
    points: 0,
    firstStep: null,
    maxStep: null,
    firstTime: null,
    lastTime: null,
  };
}

/** Returns the summary state stored in a series row. */
export function rowState(row: SeriesRow): SeriesState {
  const count = Number(row.count);
  return {
    moments: {
      count,
      mean: row.mean === null ? NaN : Number(row.mean),
      meanLo: row.mean_lo === null ? NaN : Number(row.mean_lo),
      m2: row.m2 === null ? NaN : Number(row.m2),
      min: count > 0 && row.min_value !== null ? Number(row.min_value) : Infinity,
      max: count > 0 && row.max_value !== null ? Number(row.max_value) : -Infinity,
    },
    lastStep: nullableNumber(row.last_step),
    lastValue: row.last_value === null ? null : Number(row.last_value),
    points: Number(row.points),
    firstStep: nullableNumber(row.first_step),
    maxStep: nullableNumber(row.max_step),
    firstTime: nullableNumber(row.first_time),
    lastTime: nullableNumber(row.last_time),
  };
}

/** The UPDATE that stores a SeriesState; its parameters come from stateParams. */
export const UPDATE_SERIES_STATE =
  'UPDATE series SET count = ?, mean = ?, mean_lo = ?, m2 = ?, min_value = ?, max_value = ?, last_step = ?, ' +
  'last_value = ?, points = ?, first_step = ?, max_step = ?, first_time = ?, last_time = ? WHERE id = ?';

/** Returns the parameters of UPDATE_SERIES_STATE for this state and series id. */
export function stateParams(s: SeriesState, seriesId: number): SqlValue[] {
  const m = s.moments;
  const some = m.count > 0;
  return [
    m.count,
    some ? m.mean : 0,
    some ? (m.meanLo ?? 0) : 0,
    some ? m.m2 : 0,
    some ? m.min : null,
    some ? m.max : null,
    s.lastStep,
    s.lastValue,
    s.points,
    s.firstStep,
    s.maxStep,
    s.firstTime,
    s.lastTime,
    seriesId,
  ];
}

/**
 * Stores a SeriesState with a new version on existing series rows, many rows in one
 * statement where the engine batches inserts; parameters from stateUpsertParams.
 */
export const UPSERT_SERIES_STATE =
  'INSERT INTO series (id, run_id, project_id, log_name, log_group, count, mean, mean_lo, m2, min_value, max_value, ' +
  'last_step, last_value, points, first_step, max_step, first_time, last_time, version) ' +
  'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET ' +
  'count = excluded.count, mean = excluded.mean, mean_lo = excluded.mean_lo, m2 = excluded.m2, ' +
  'min_value = excluded.min_value, max_value = excluded.max_value, last_step = excluded.last_step, ' +
  'last_value = excluded.last_value, points = excluded.points, first_step = excluded.first_step, ' +
  'max_step = excluded.max_step, first_time = excluded.first_time, last_time = excluded.last_time, version = excluded.version';

/** Returns the parameters of UPSERT_SERIES_STATE for a series row, its project, new state and version. */
export function stateUpsertParams(row: SeriesRow, projectId: number, s: SeriesState, version: number): SqlValue[] {
  const state = stateParams(s, 0).slice(0, -1);
  return [Number(row.id), Number(row.run_id), projectId, row.log_name, row.log_group, ...state, version];
}

/** Returns the public summary of a state, reported as the given run's. */
export function stateSummary(runId: number, logName: string, logGroup: string, s: SeriesState): SeriesSummary {
  const m = s.moments;
  const some = m.count > 0;
  return {
    runId,
    logName,
    logGroup,
    count: m.count,
    mean: some ? m.mean + (m.meanLo ?? 0) : 0,
    m2: some ? Math.max(0, m.m2) : 0,
    min: some ? m.min : null,
    max: some ? m.max : null,
    lastStep: s.lastStep,
    lastValue: s.lastValue,
    points: s.points,
    firstStep: s.firstStep,
    maxStep: s.maxStep,
    firstTime: s.firstTime,
    lastTime: s.lastTime,
  };
}

/** Returns the stored form (value, flag) of a metric value. */
export function encodeValue(value: number): { value: number | null; flag: number } {
  if (Number.isFinite(value)) return { value, flag: 0 };
  if (Number.isNaN(value)) return { value: null, flag: 1 };
  return { value: null, flag: value > 0 ? 2 : 3 };
}

const FLAGS: readonly MetricPoint['flag'][] = [null, 'NaN', 'Infinity', '-Infinity'];

/** Returns the public form of a stored point. */
export function toMetricPoint(p: StoredPoint): MetricPoint {
  return { step: p.step, time: p.time, value: p.value, flag: FLAGS[p.flag] ?? null };
}
