/** Webhook subscriptions of an organization: create, list, find, delete, queue a test event. */
import type { EventType, NewWebhook, WebhookFormat, WebhookRecord } from '../../../domain/events.js';
import type { SqlDb } from '../db.js';
import { appendEventInTx } from './append-event.js';

interface WebhookRow {
  id: number;
  org_id: number;
  project_id: number | null;
  project_name: string | null;
  url: string;
  events: string;
  format: string;
  failed_deliveries: number;
  disabled_at: number | null;
  created_at: number;
}

const COLUMNS = `w.id, w.org_id, w.project_id, p.name AS project_name, w.url, w.events, w.format,
  w.failed_deliveries, w.disabled_at, w.created_at`;
const FROM = 'webhooks w LEFT JOIN projects p ON p.id = w.project_id';

function toWebhook(r: WebhookRow): WebhookRecord {
  return {
    id: Number(r.id),
    orgId: Number(r.org_id),
    projectId: r.project_id === null ? null : Number(r.project_id),
    projectName: r.project_name,
    url: r.url,
    events: JSON.parse(r.events) as EventType[],
    format: r.format as WebhookFormat,
    failedDeliveries: Number(r.failed_deliveries),
    disabledAt: r.disabled_at === null ? null : Number(r.disabled_at),
    createdAt: Number(r.created_at),
  };
}

/** Stores a subscription (its secret too: deliveries are signed with it); returns its id. */
export async function createWebhook(db: SqlDb, w: NewWebhook): Promise<number> {
  const row = await db.transaction((tx) =>
    tx.get<{ id: number }>(
      `INSERT INTO webhooks (org_id, project_id, url, events, format, secret, created_by, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      [w.orgId, w.projectId, w.url, JSON.stringify(w.events), w.format, w.secret, w.createdBy, w.at],
    ),
  );
  return Number(row!.id);
}

/** The organization's subscriptions, newest first, at most `limit`. */
export async function listWebhooks(db: SqlDb, orgId: number, limit: number): Promise<WebhookRecord[]> {
  const rows = await db.all<WebhookRow>(
    `SELECT ${COLUMNS} FROM ${FROM} WHERE w.org_id = ? ORDER BY w.id DESC LIMIT ?`,
    [orgId, limit],
  );
  return rows.map(toWebhook);
}

/** The organization's subscription with this id, or undefined (another organization's too). */
export async function findWebhook(db: SqlDb, orgId: number, id: number): Promise<WebhookRecord | undefined> {
  const row = await db.get<WebhookRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE w.id = ? AND w.org_id = ?`, [id, orgId]);
  return row && toWebhook(row);
}

/** Deletes a subscription with its deliveries; false when the organization has none with this id. */
export function deleteWebhook(db: SqlDb, orgId: number, id: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const found = await tx.get('SELECT id FROM webhooks WHERE id = ? AND org_id = ?', [id, orgId]);
    if (!found) return false;
    await tx.run('DELETE FROM webhook_deliveries WHERE webhook_id = ?', [id]);
    await tx.run('DELETE FROM webhooks WHERE id = ?', [id]);
    return true;
  });
}

/**
 * Appends a `webhook.test` event and queues its delivery to this subscription only (even
 * a disabled one: a test is how its owner checks the receiver is back). Returns the
 * delivery's id, or undefined when the organization has no such subscription.
 */
export function queueTestDelivery(db: SqlDb, orgId: number, id: number, at: number): Promise<number | undefined> {
  return db.transaction(async (tx) => {
    const hook = await tx.get<{ project_id: number | null }>(
      'SELECT project_id FROM webhooks WHERE id = ? AND org_id = ?',
      [id, orgId],
    );
    if (!hook) return undefined;
    const eventId = await appendEventInTx(tx, {
      orgId,
      projectId: hook.project_id === null ? null : Number(hook.project_id),
      runId: null,
      type: 'webhook.test',
      data: { webhookId: id, message: 'A test event from Stepwise.' },
      at,
    });
    const row = await tx.get<{ id: number }>(
      `INSERT INTO webhook_deliveries (webhook_id, event_id, status, attempts, next_attempt_at, created_at)
       VALUES (?, ?, 'pending', 0, ?, ?) RETURNING id`,
      [id, eventId, at, at],
    );
    return Number(row!.id);
  });
}
