/**
 * The last finite value of one metric for every run of a project, read from the stored
 * summaries through the covering index series_project_last (migration 006): one index range,
 * no table rows, so a 10,000-run project costs a few milliseconds.
 */
import type { SqlDb } from './sql-db.js';

/** Returns [runId, last finite value] of one metric for each run of a project that has one (own points only), any order. */
export async function projectLastValues(db: SqlDb, projectId: number, logName: string): Promise<[number, number][]> {
  const rows = await db.all<{ run_id: number; v: number }>(
    'SELECT run_id, last_value AS v FROM series WHERE project_id = ? AND log_name = ? AND last_value IS NOT NULL',
    [projectId, logName],
  );
  return rows.map((r) => [Number(r.run_id), Number(r.v)]);
}
