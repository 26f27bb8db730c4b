import type { SqlDb, SqlExecutor } from '../db.js';
import { appendEventInTx, eventRunInTx } from '../events/append-event.js';
import { findRunInTx } from './run-create.js';
import { toJsonColumn } from './run-row.js';
import { liveRun } from './live-runs.js';

/** A RUNNING run that has shown no sign of life since `lastSeenAt`. */
export interface StaleRun {
  runId: number;
  lastSeenAt: number;
}

/**
 * RUNNING runs last seen (liveness write, creation or status change) before `before`, the
 * longest silent first, at most `limit`. Served by the partial index of migration 004.
 */
export async function listStaleRuns(db: SqlDb, before: number, limit: number): Promise<StaleRun[]> {
  const rows = await db.all<{ id: number; last_seen_at: number }>(
    `SELECT id, last_seen_at FROM runs
     WHERE status = 'RUNNING' AND last_seen_at < ? AND status_updated < ? AND ${liveRun('runs')}
     ORDER BY last_seen_at LIMIT ?`,
    [before, before, limit],
  );
  return rows.map((r) => ({ runId: Number(r.id), lastSeenAt: Number(r.last_seen_at) }));
}

/**
 * Marks one run FAILED (source `system`) with one conditional UPDATE that re-checks it is
 * still RUNNING and silent since before `before`, so concurrent sweeps of several replicas
 * and a client write racing the sweep cannot both win. Returns whether it changed the run.
 */
export function failStaleRun(db: SqlDb, runId: number, before: number, metadata: unknown, at: number) {
  const stored = toJsonColumn(metadata);
  return db.transaction(async (tx) => {
    const changed = await tx.run(
      `UPDATE runs SET status = 'FAILED', status_updated = ?, updated_at = ?, status_metadata = ?
       WHERE id = ? AND status = 'RUNNING' AND last_seen_at < ? AND status_updated < ?`,
      [at, at, stored, runId, before, before],
    );
    if (changed !== 1) return false;
    await tx.run(
      `INSERT INTO status_events (run_id, from_status, to_status, source, metadata, created_at)
       VALUES (?, 'RUNNING', 'FAILED', 'system', ?, ?)`,
      [runId, stored, at],
    );
    await appendRunEvents(tx, runId, 'FAILED', 'RUNNING', 'system', metadata, at, true);
    return true;
  });
}

/**
 * Appends the status change of a run the sweep failed or put back (and `run.stale` for a
 * run it failed), inside the transaction that changed it.
 */
async function appendRunEvents(
  tx: SqlExecutor,
  runId: number,
  to: string,
  from: string,
  source: string,
  metadata: unknown,
  at: number,
  stale: boolean,
): Promise<void> {
  const found = await eventRunInTx(tx, runId);
  if (!found) return;
  const { orgId, projectId, ...run } = found;
  const base = { orgId, projectId, runId, at };
  await appendEventInTx(tx, {
    ...base,
    type: 'run.status_changed',
    data: { run, from, to, source, metadata: metadata ?? null },
  });
  if (stale) await appendEventInTx(tx, { ...base, type: 'run.stale', data: { run, metadata: metadata ?? null } });
}

const RESUME_REASON = { reason: 'the client wrote again after the run was marked stale' };

/**
 * Puts a run the system marked FAILED back to RUNNING with a `resume` event (its
 * statusMetadata, the system's reason, is cleared). A run failed by its client, or not
 * FAILED, is left alone. Returns whether it changed the run; false for a foreign run.
 */
export function resumeStaleRun(db: SqlDb, orgId: number, runId: number, at: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const run = await findRunInTx(tx, orgId, runId, db.dialect.forUpdate);
    if (run?.status !== 'FAILED') return false;
    const last = await tx.get<{ source: string }>(
      'SELECT source FROM status_events WHERE run_id = ? ORDER BY id DESC LIMIT 1',
      [runId],
    );
    if (last?.source !== 'system') return false;
    await tx.run(
      `UPDATE runs SET status = 'RUNNING', status_updated = ?, updated_at = ?, last_seen_at = ?, status_metadata = NULL
       WHERE id = ?`,
      [at, at, at, runId],
    );
    await tx.run(
      `INSERT INTO status_events (run_id, from_status, to_status, source, metadata, created_at)
       VALUES (?, 'FAILED', 'RUNNING', 'resume', ?, ?)`,
      [runId, toJsonColumn(RESUME_REASON), at],
    );
    await appendRunEvents(tx, runId, 'RUNNING', 'FAILED', 'resume', RESUME_REASON, at, false);
    return true;
  });
}
