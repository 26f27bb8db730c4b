import { isNotification, type EventRun, type EventType, type NewEvent } from '../../../domain/events.js';
import type { SqlDb, SqlExecutor } from '../db.js';
import { chunks } from '../util.js';

/**
 * Appends an event to the outbox inside the caller's transaction (the one that makes the
 * change it tells of, so neither is kept without the other) and queues one delivery for
 * each enabled subscription of the event's organization that asks for its type (and for its
 * project, when the subscription names one). Returns the event's id.
 */
export async function appendEventInTx(tx: SqlExecutor, e: NewEvent): Promise<number> {
  const row = await tx.get<{ id: number }>(
    `INSERT INTO events (org_id, project_id, run_id, type, data, notify, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    [e.orgId, e.projectId, e.runId, e.type, JSON.stringify(e.data), isNotification(e) ? 1 : 0, e.at],
  );
  const eventId = Number(row!.id);
  await tx.run(
    `INSERT INTO webhook_deliveries (webhook_id, event_id, status, attempts, next_attempt_at, created_at)
     SELECT id, ?, 'pending', 0, ?, ? FROM webhooks
     WHERE org_id = ? AND disabled_at IS NULL AND (project_id IS NULL OR project_id = ?) AND events LIKE ?`,
    [eventId, e.at, e.at, e.orgId, e.projectId, `%"${e.type}"%`],
  );
  return eventId;
}

/** Appends an event in a transaction of its own (appendEventInTx); returns its id. */
export function appendEvent(db: SqlDb, e: NewEvent): Promise<number> {
  return db.transaction((tx) => appendEventInTx(tx, e));
}

/** The run an event names, read inside the transaction; undefined for a missing run. */
export async function eventRunInTx(
  tx: SqlExecutor,
  runId: number,
): Promise<(EventRun & { orgId: number; projectId: number }) | undefined> {
  const r = await tx.get<{
    org_id: number;
    project_id: number;
    prefix: string;
    number: number;
    name: string;
    project_name: string;
    status: string;
  }>(
    `SELECT r.org_id, r.project_id, p.prefix, r.number, r.name, p.name AS project_name, r.status
     FROM runs r JOIN projects p ON p.id = r.project_id WHERE r.id = ?`,
    [runId],
  );
  if (!r) return undefined;
  return {
    id: runId,
    orgId: Number(r.org_id),
    projectId: Number(r.project_id),
    displayId: `${r.prefix}-${Number(r.number)}`,
    number: Number(r.number),
    name: r.name,
    projectName: r.project_name,
    status: r.status,
  };
}

/** The event summary of a run record (a Run, or any record with its fields). */
export function eventRunOf(run: EventRun): EventRun {
  const { id, displayId, number, name, projectName, status } = run;
  return { id, displayId, number, name, projectName, status };
}

/**
 * Appends one event of `type` with data `{run}` for each of the organization's runs in
 * `runIds` inside the caller's transaction, as appendEventInTx does one by one, in a few
 * statements whatever their number (a deletion of 1,000 runs writes 1,000 events).
 */
export async function appendRunEventsInTx(
  tx: SqlExecutor,
  orgId: number,
  runIds: readonly number[],
  type: EventType,
  at: number,
): Promise<void> {
  for (const ids of chunks([...runIds], EVENTS_PER_STATEMENT)) {
    const marks = ids.map(() => '?').join(', ');
    const runs = await tx.all<{
      id: number;
      project_id: number;
      prefix: string;
      number: number;
      name: string;
      project_name: string;
      status: string;
    }>(
      `SELECT r.id, r.project_id, p.prefix, r.number, r.name, p.name AS project_name, r.status
       FROM runs r JOIN projects p ON p.id = r.project_id WHERE r.org_id = ? AND r.id IN (${marks}) ORDER BY r.id`,
      [orgId, ...ids],
    );
    if (runs.length === 0) continue;
    const rows = runs.map((r) => {
      const run: EventRun = {
        id: Number(r.id),
        displayId: `${r.prefix}-${Number(r.number)}`,
        number: Number(r.number),
        name: r.name,
        projectName: r.project_name,
        status: r.status,
      };
      const e: NewEvent = { orgId, projectId: Number(r.project_id), runId: run.id, type, data: { run }, at };
      return [e.orgId, e.projectId, e.runId, e.type, JSON.stringify(e.data), isNotification(e) ? 1 : 0, e.at];
    });
    const inserted = await tx.all<{ id: number }>(
      `INSERT INTO events (org_id, project_id, run_id, type, data, notify, created_at)
       VALUES ${rows.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')} RETURNING id`,
      rows.flat(),
    );
    const eventIds = inserted.map((row) => Number(row.id));
    await tx.run(
      `INSERT INTO webhook_deliveries (webhook_id, event_id, status, attempts, next_attempt_at, created_at)
       SELECT w.id, e.id, 'pending', 0, ?, ? FROM events e JOIN webhooks w
         ON w.org_id = e.org_id AND w.disabled_at IS NULL AND (w.project_id IS NULL OR w.project_id = e.project_id)
       WHERE e.id IN (${eventIds.map(() => '?').join(', ')}) AND w.events LIKE ?`,
      [at, at, ...eventIds, `%"${type}"%`],
    );
  }
}

/** Events one statement of appendRunEventsInTx writes (7 parameters each, within every engine's limit). */
const EVENTS_PER_STATEMENT = 100;
