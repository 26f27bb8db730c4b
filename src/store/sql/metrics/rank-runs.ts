/**
 * Leaderboard ranking inside the database from the stored series summaries, so a page of a
 * 10,000-run project reads one index range and sorts there instead of loading every row.
 */
import type { Aggregation, Direction, RankedRun } from '../../../domain/aggregation.js';
import type { SqlDb } from '../db.js';

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
 * ascending, skipping `exclude` (at most ~500 ids) and runs without a finite value. Returns
 * the page and the number ranked.
 */
export async function rankRuns(
  db: SqlDb,
  q: {
    projectId: number;
    logName: string;
    aggregation: Aggregation;
    direction: Direction;
    limit: number;
    offset: number;
  },
  exclude: readonly number[],
): Promise<{ rows: RankedRun[]; total: number }> {
  const value = VALUE[q.aggregation];
  const notIn = exclude.length > 0 ? ` AND run_id NOT IN (${exclude.map(() => '?').join(', ')})` : '';
  const where = `FROM series WHERE project_id = ? AND log_name = ? AND count > 0${notIn}`;
  const params = [q.projectId, q.logName, ...exclude];
  const rows = await db.all<{ run_id: number | string; v: number }>(
    `SELECT run_id, ${value} AS v ${where} ORDER BY v ${q.direction}, run_id ASC LIMIT ? OFFSET ?`,
    [...params, q.limit, q.offset],
  );
  const counted = await db.get<{ n: number | string }>(`SELECT COUNT(*) AS n ${where}`, params);
  return { rows: rows.map((r) => ({ runId: Number(r.run_id), value: Number(r.v) })), total: Number(counted?.n ?? 0) };
}
