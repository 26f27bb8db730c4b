/**
 * Leaderboard ranking inside the database from the stored series summaries, so a page of a
 * 10,000-run project reads one index range and sorts there instead of loading every row.
 */
import type { Aggregation, RankedRun } from '../../../domain/aggregation.js';
import type { RankQuery } from '../../series-store.js';
import type { SqlDb } from '../db.js';
import type { SqlValue } from '../sql-value.js';

/** The stored-summary expression of each aggregation (rows with count > 0 only). */
const VALUE: Record<Aggregation, string> = {
  MIN: 'min_value',
  MAX: 'max_value',
  AVG: '(mean + mean_lo)',
  LAST: 'last_value',
  // A subnormal m2 counts as 0: dividing it could underflow, an error on PostgreSQL.
  VARIANCE: '(CASE WHEN m2 > 2.5e-308 THEN m2 ELSE 0 END / count)',
};

/**
 * Runs of a project ranked by an aggregate of their own points of one metric, ties by runId
 * ascending, skipping `exclude` (at most ~500 ids) and runs without a finite value, and with
 * `q.runIds` only those runs (any number: sent as one JSON parameter, read as an ad-hoc read
 * with the search deadline). Returns the page and the number ranked.
 */
export async function rankRuns(
  db: SqlDb,
  q: RankQuery,
  exclude: readonly number[],
): Promise<{ rows: RankedRun[]; total: number }> {
  const value = VALUE[q.aggregation];
  const notIn = exclude.length > 0 ? ` AND run_id NOT IN (${exclude.map(() => '?').join(', ')})` : '';
  const only = q.runIds && db.dialect.search.inIdList('run_id', JSON.stringify(q.runIds));
  const where = `FROM series WHERE project_id = ? AND log_name = ? AND count > 0${notIn}${only ? ` AND ${only.sql}` : ''}`;
  const params = [q.projectId, q.logName, ...exclude, ...(only?.params ?? [])];
  const order = `ORDER BY v ${q.direction}, run_id ASC LIMIT ? OFFSET ?`;
  const page = [...params, q.limit, q.offset];
  type Row = { run_id: number | string; v: number };
  let rows: Row[];
  let total: number;
  if (only) {
    rows = await db.allAdHoc<Row>(`SELECT run_id, ${value} AS v ${where} ${order}`, page);
    // The page holds every ranked run unless it is full or starts past the first.
    const whole = rows.length < q.limit && (q.offset === 0 || rows.length > 0);
    total = whole ? q.offset + rows.length : await countAdHoc(db, where, params);
  } else {
    rows = await db.all<Row>(`SELECT run_id, ${value} AS v ${where} ${order}`, page);
    const counted = await db.get<{ n: number | string }>(`SELECT COUNT(*) AS n ${where}`, params);
    total = Number(counted?.n ?? 0);
  }
  return { rows: rows.map((r) => ({ runId: Number(r.run_id), value: Number(r.v) })), total };
}

async function countAdHoc(db: SqlDb, where: string, params: readonly SqlValue[]): Promise<number> {
  const counted = await db.allAdHoc<{ n: number | string }>(`SELECT COUNT(*) AS n ${where}`, params);
  return Number(counted[0]?.n ?? 0);
}
