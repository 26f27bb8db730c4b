import { deepMerge, isPlainObject } from '../../../domain/deep-merge.js';
import { decideStatusWrite } from '../../../domain/status-rules.js';
import type { Run, RunStatus, StatusEvent, StatusSource } from '../../../domain/types.js';
import { notFound } from '../../../errors.js';
import type { StatusWrite } from '../../metadata-store.js';
import type { SqlDb } from '../db.js';
import { appendEventInTx, eventRunOf } from '../events/append-event.js';
import { findRunInTx } from './run-create.js';
import { parseJsonColumn, toJsonColumn } from './run-row.js';

/**
 * Applies one status write under the run's row lock (the SQLite writer lock serialises it
 * there), so parallel identical writes record one event and precedence always holds.
 */
export function updateStatus(db: SqlDb, orgId: number, runId: number, w: StatusWrite): Promise<Run> {
  return db.transaction(async (tx) => {
    const run = await findRunInTx(tx, orgId, runId, db.dialect.forUpdate);
    if (!run) throw notFound(`run ${runId} not found`);
    const decision = decideStatusWrite(run.status, w.status, w.source);
    if (decision === 'ignore') return run;
    const sets: string[] = ['updated_at = ?'];
    const params: (string | number | null)[] = [w.at];
    if (w.statusMetadata !== undefined) {
      sets.push('status_metadata = ?');
      params.push(toJsonColumn(w.statusMetadata));
    }
    if (isPlainObject(w.loggerSettings)) {
      sets.push('logger_settings = ?');
      params.push(toJsonColumn(deepMerge(run.loggerSettings, w.loggerSettings)));
    }
    if (decision === 'transition') {
      sets.push('status = ?', 'status_updated = ?');
      params.push(w.status, w.at);
      await tx.run(
        `INSERT INTO status_events (run_id, from_status, to_status, source, metadata, created_at, actor_user_id,
           actor_key_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          runId,
          run.status,
          w.status,
          w.source,
          toJsonColumn(w.statusMetadata ?? null),
          w.at,
          w.actor?.userId ?? null,
          w.actor?.keyId ?? null,
        ],
      );
      await appendEventInTx(tx, {
        orgId,
        projectId: run.projectId,
        runId,
        type: 'run.status_changed',
        data: {
          run: { ...eventRunOf(run), status: w.status },
          from: run.status,
          to: w.status,
          source: w.source,
          metadata: w.statusMetadata ?? null,
        },
        at: w.at,
      });
    }
    await tx.run(`UPDATE runs SET ${sets.join(', ')} WHERE id = ?`, [...params, runId]);
    return (await findRunInTx(tx, orgId, runId))!;
  });
}

interface EventRow {
  id: number;
  run_id: number;
  from_status: string | null;
  to_status: string;
  source: string;
  metadata: string | null;
  created_at: number;
  actor_user_id: number | null;
  actor_key_id: number | null;
}

/** A run's status events, oldest first; NOT_FOUND when the run is not the org's. */
export async function listStatusEvents(db: SqlDb, orgId: number, runId: number): Promise<StatusEvent[]> {
  if (!(await findRunInTx(db, orgId, runId))) throw notFound(`run ${runId} not found`);
  const rows = await db.all<EventRow>(
    `SELECT id, run_id, from_status, to_status, source, metadata, created_at, actor_user_id, actor_key_id
     FROM status_events WHERE run_id = ? ORDER BY id`,
    [runId],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    runId: Number(r.run_id),
    fromStatus: r.from_status as RunStatus | null,
    toStatus: r.to_status as RunStatus,
    source: r.source as StatusSource,
    metadata: parseJsonColumn(r.metadata),
    createdAt: Number(r.created_at),
    actor:
      r.actor_user_id === null
        ? null
        : { userId: Number(r.actor_user_id), keyId: r.actor_key_id === null ? null : Number(r.actor_key_id) },
  }));
}
