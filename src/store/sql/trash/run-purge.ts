/**
 * Purging trashed runs in the SQL metadata store. A purge is one transaction per run: the
 * run's rows go (or, while a fork still inherits its points, the run is only marked purged
 * and kept for the fork's reads) and a `purge_queue` row is written in the same transaction,
 * naming what the series store and the blob store still hold of it. Whatever kills the
 * process, the run is then either whole in the trash or gone with its bytes queued.
 */
import type { PurgeJob } from '../../../domain/types.js';
import { notFound } from '../../../errors.js';
import type { SqlDb, SqlExecutor } from '../db.js';

/** Tables of the metadata store with a row per run besides `runs` (deleted with it). */
const RUN_TABLES = ['status_events', 'log_names', 'model_graphs', 'alerts'];

/** True when some run (trashed, purged-but-kept or live) is a fork of this one. */
async function hasForks(tx: SqlExecutor, runId: number): Promise<boolean> {
  return (await tx.get('SELECT 1 AS x FROM runs WHERE forked_from_run_id = ? LIMIT 1', [runId])) !== undefined;
}

/**
 * Deletes a run's rows and queues its series rows; then the same for its parent when that
 * was purged and kept only for this fork, and so up the lineage. Returns the jobs queued.
 */
async function dropRun(tx: SqlExecutor, runId: number, at: number): Promise<PurgeJob[]> {
  const jobs: PurgeJob[] = [];
  let current: number | null = runId;
  while (current !== null) {
    const row: { forked_from_run_id: number | null } | undefined = await tx.get(
      'SELECT forked_from_run_id FROM runs WHERE id = ?',
      [current],
    );
    if (!row) break;
    for (const table of RUN_TABLES) await tx.run(`DELETE FROM ${table} WHERE run_id = ?`, [current]);
    await tx.run('DELETE FROM runs WHERE id = ?', [current]);
    await queue(tx, current, false, at);
    jobs.push({ runId: current, keepSeries: false });
    const parent: number | null = row.forked_from_run_id === null ? null : Number(row.forked_from_run_id);
    if (parent === null) break;
    const kept: unknown = await tx.get('SELECT 1 AS x FROM runs WHERE id = ? AND purged_at IS NOT NULL', [parent]);
    current = kept && !(await hasForks(tx, parent)) ? parent : null;
  }
  return jobs;
}

/** Writes (or replaces) a run's purge_queue row. */
async function queue(tx: SqlExecutor, runId: number, keepSeries: boolean, at: number): Promise<void> {
  await tx.run(
    `INSERT INTO purge_queue (run_id, keep_series, queued_at) VALUES (?, ?, ?)
     ON CONFLICT (run_id) DO UPDATE SET keep_series = excluded.keep_series, queued_at = excluded.queued_at`,
    [runId, keepSeries ? 1 : 0, at],
  );
}

/**
 * Purges one trashed run of the organization (any organization when orgId is null, for
 * the sweeps) in one transaction: a run with forks is marked purged and kept (its series
 * stay for them); any other run is deleted, and so is a purged parent it was the last fork
 * of. Throws NOT_FOUND when the run is not in the trash (unknown, foreign, live or purged).
 * Returns the series-store jobs queued (purge_queue), to run with runPurgeJob.
 */
export function purgeRun(db: SqlDb, orgId: number | null, runId: number, at: number): Promise<PurgeJob[]> {
  return db.transaction(async (tx) => {
    const row = await tx.get(
      `SELECT id FROM runs WHERE id = ? ${orgId === null ? '' : 'AND org_id = ?'} AND deleted_at IS NOT NULL
       AND purged_at IS NULL ${db.dialect.forUpdate}`,
      orgId === null ? [runId] : [runId, orgId],
    );
    if (!row) throw notFound(`run ${runId} not found in the trash`);
    if (await hasForks(tx, runId)) {
      await tx.run('UPDATE runs SET purged_at = ? WHERE id = ?', [at, runId]);
      await queue(tx, runId, true, at);
      return [{ runId, keepSeries: true }];
    }
    return dropRun(tx, runId, at);
  });
}

/** Queued purge jobs, the oldest first, at most `limit`. */
export async function listPurgeQueue(db: SqlDb, limit: number): Promise<PurgeJob[]> {
  const rows = await db.all<{ run_id: number; keep_series: number }>(
    'SELECT run_id, keep_series FROM purge_queue ORDER BY queued_at, run_id LIMIT ?',
    [limit],
  );
  return rows.map((r) => ({ runId: Number(r.run_id), keepSeries: Number(r.keep_series) === 1 }));
}

/** Removes a finished purge job (only if it is still the one run: a newer job for the run stays). */
export async function finishPurgeJob(db: SqlDb, job: PurgeJob): Promise<void> {
  await db.run('DELETE FROM purge_queue WHERE run_id = ? AND keep_series = ?', [job.runId, job.keepSeries ? 1 : 0]);
}
