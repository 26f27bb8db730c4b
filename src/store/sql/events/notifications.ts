/** The dashboard's notifications: an organization's events marked `notify`, and what each user has read. */
import type { EventType, StoredEvent } from '../../../domain/events.js';
import type { SqlDb } from '../db.js';

/** The organization's notification events, newest first, at most `limit` (an index range). */
export async function listNotifications(db: SqlDb, orgId: number, limit: number): Promise<StoredEvent[]> {
  const rows = await db.all<{
    id: number;
    project_id: number | null;
    run_id: number | null;
    type: string;
    data: string;
    created_at: number;
  }>(
    `SELECT id, project_id, run_id, type, data, created_at FROM events
     WHERE org_id = ? AND notify = 1 ORDER BY id DESC LIMIT ?`,
    [orgId, limit],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    orgId,
    projectId: r.project_id === null ? null : Number(r.project_id),
    runId: r.run_id === null ? null : Number(r.run_id),
    type: r.type as EventType,
    data: JSON.parse(r.data) as Record<string, unknown>,
    at: Number(r.created_at),
  }));
}

/** How many of the organization's notifications are newer than event `afterId`, counting at most `cap`. */
export async function countNotificationsAfter(db: SqlDb, orgId: number, afterId: number, cap: number): Promise<number> {
  const row = await db.get<{ n: number }>(
    `SELECT COUNT(*) AS n FROM (SELECT 1 FROM events WHERE org_id = ? AND notify = 1 AND id > ? LIMIT ?) x`,
    [orgId, afterId, cap],
  );
  return Number(row?.n ?? 0);
}

/** The last event id the user has read up to (0 when never). */
export async function findReadMark(db: SqlDb, userId: number): Promise<number> {
  const row = await db.get<{ last_event_id: number }>(
    'SELECT last_event_id FROM notification_reads WHERE user_id = ?',
    [userId],
  );
  return Number(row?.last_event_id ?? 0);
}

/** Moves the user's read mark forward to `eventId` (never back). */
export async function markRead(db: SqlDb, userId: number, eventId: number): Promise<void> {
  await db.run(
    `INSERT INTO notification_reads (user_id, last_event_id) VALUES (?, ?)
     ON CONFLICT (user_id) DO UPDATE SET last_event_id = ? WHERE notification_reads.last_event_id < ?`,
    [userId, eventId, eventId, eventId],
  );
}
