/**
 * The `series` row and `metric_points` encodings shared by the SQL series store: a series'
 * summary state, its conversion to a SeriesSummary, and the non-finite value flags.
 */
import type { MetricPoint, SeriesExtent, SeriesSummary } from '../../../domain/types.js';
import { emptyMoments, type Moments } from '../../../domain/summary.js';
import type { ColumnForm, SqlDb, SqlExecutor, Statement } from '../db.js';
import type { SqlValue } from '../sql-value.js';

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
  /** Random token replaced by every write of the series (see chunks/tail-cache.ts). */
  version: number | string;
}

/** The columns of SeriesRow, for SELECT lists (seriesRows reads them in this order). */
export const SERIES_COLUMNS =
  'id, run_id, log_name, log_group, count, mean, mean_lo, m2, min_value, max_value, last_step, last_value, ' +
  'points, first_step, max_step, first_time, last_time, version';

/** A row of SERIES_COLUMNS as an array in that order, shaped as a SeriesRow. */
function rowOfArray(r: readonly unknown[]): SeriesRow {
  return {
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
  };
}

/**
 * Returns the rows of a `SELECT ${SERIES_COLUMNS} …` query as SeriesRows. The rows come as
 * arrays (SqlExecutor.allArrays) and are shaped here: about half the time of the driver's
 * objects for the 1,000-series reads of statistics and ingest.
 */
export async function seriesRows(tx: SqlExecutor, sql: string, params: readonly SqlValue[]): Promise<SeriesRow[]> {
  return (await tx.allArrays(sql, params)).map(rowOfArray);
}

/** The forms of SERIES_COLUMNS for SqlDb.readMany: the names come as their UTF-8 bytes. */
// prettier-ignore
const SERIES_FORMS: readonly ColumnForm[] = [
  'int', 'int', 'bytes', 'bytes', 'int', 'float', 'float', 'float', 'float', 'float', 'int', 'float',
  'int', 'int', 'int', 'int', 'int', 'int',
];

const utf8 = (b: unknown): string => {
  const bytes = b as Uint8Array;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
};

/**
 * seriesRows through SqlDb.readMany (the engine must have it): one statement, its `?` all
 * integers; numbers cross in binary, not as text to parse (PostgreSQL).
 */
export async function seriesRowsMany(db: SqlDb, sql: string, params: readonly number[]): Promise<SeriesRow[]> {
  const out: SeriesRow[] = [];
  await db.readMany!(sql, [params], SERIES_FORMS, (_, r) => {
    const a = r.slice();
    a[2] = utf8(a[2]);
    a[3] = utf8(a[3]);
    out.push(rowOfArray(a));
  });
  return out;
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

const some = (s: SeriesState): boolean => s.moments.count > 0;

/**
 * The series columns holding a SeriesState: name, type, and the value stored for a state
 * (the moments as 0 or NULL when there is no finite value). One list, so the UPDATE of
 * stateUpdates and the row of withState cannot disagree on a column.
 */
const STATE_COLUMNS: readonly (readonly [
  column: keyof SeriesRow,
  type: 'BIGINT' | 'DOUBLE PRECISION',
  value: (s: SeriesState) => number | null,
])[] = [
  ['count', 'BIGINT', (s) => s.moments.count],
  ['mean', 'DOUBLE PRECISION', (s) => (some(s) ? s.moments.mean : 0)],
  ['mean_lo', 'DOUBLE PRECISION', (s) => (some(s) ? (s.moments.meanLo ?? 0) : 0)],
  ['m2', 'DOUBLE PRECISION', (s) => (some(s) ? s.moments.m2 : 0)],
  ['min_value', 'DOUBLE PRECISION', (s) => (some(s) ? s.moments.min : null)],
  ['max_value', 'DOUBLE PRECISION', (s) => (some(s) ? s.moments.max : null)],
  ['last_step', 'BIGINT', (s) => s.lastStep],
  ['last_value', 'DOUBLE PRECISION', (s) => s.lastValue],
  ['points', 'BIGINT', (s) => s.points],
  ['first_step', 'BIGINT', (s) => s.firstStep],
  ['max_step', 'BIGINT', (s) => s.maxStep],
  ['first_time', 'BIGINT', (s) => s.firstTime],
  ['last_time', 'BIGINT', (s) => s.lastTime],
];

/** The state's column values, in STATE_COLUMNS order. */
const stateValues = (s: SeriesState): SqlValue[] => STATE_COLUMNS.map(([, , value]) => value(s));

/** Returns the series row as it is once the state and version are stored on it. */
export function withState(row: SeriesRow, s: SeriesState, version: number): SeriesRow {
  const out: Record<string, unknown> = { ...row, version };
  for (const [column, , value] of STATE_COLUMNS) out[column] = value(s);
  return out as unknown as SeriesRow;
}

/** A new summary state for a series row, stored only while the row still has the version it was read with. */
export interface StateWrite {
  id: number;
  /** The version the state was computed from. */
  from: number;
  /** The version stored with it. */
  version: number;
  state: SeriesState;
}

/** Series rows per UPDATE of stateUpdates (bounds the statement texts each engine prepares). */
const STATE_ROWS = 64;
const stateSql = new Map<number, string>();

/**
 * The UPDATE storing n states from a VALUES list of (id, from, version, state...). The first
 * tuple's CASTs type the list (PostgreSQL infers the other tuples' parameters from them). A
 * row whose version is no longer `from` is set a NULL version, which the NOT NULL column
 * refuses: the statement fails, inside the database, when another writer got there first.
 */
function stateUpdateSql(n: number): string {
  let sql = stateSql.get(n);
  if (sql !== undefined) return sql;
  const types = ['BIGINT', 'BIGINT', 'BIGINT', ...STATE_COLUMNS.map(([, type]) => type)];
  const first = `(${types.map((t) => `CAST(? AS ${t})`).join(', ')})`;
  const other = `(${types.map(() => '?').join(', ')})`;
  const tuples = [first, ...Array.from({ length: n - 1 }, () => other)].join(', ');
  const sets = STATE_COLUMNS.map(([column], i) => `${column} = v.column${i + 4}`).join(', ');
  sql =
    `UPDATE series SET ${sets}, version = CASE WHEN series.version = v.column2 THEN v.column3 END ` +
    `FROM (VALUES ${tuples}) AS v WHERE series.id = v.column1`;
  stateSql.set(n, sql);
  return sql;
}

/** The statements storing these states on existing series rows (see stateUpdateSql), at most STATE_ROWS rows each. */
export function stateUpdates(writes: readonly StateWrite[]): Statement[] {
  const out: Statement[] = [];
  for (let i = 0; i < writes.length; i += STATE_ROWS) {
    const part = writes.slice(i, i + STATE_ROWS);
    const params = part.flatMap((w) => [w.id, w.from, w.version, ...stateValues(w.state)]);
    out.push({ sql: stateUpdateSql(part.length), rows: [params] });
  }
  return out;
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
