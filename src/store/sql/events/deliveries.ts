/** Webhook deliveries: the worker's claims and outcomes, and a subscription's delivery list. */
import type {
  ClaimedDelivery,
  DeliveryOutcome,
  DeliveryRecord,
  DeliveryStatus,
  EventType,
  WebhookFormat,
} from '../../../domain/events.js';
import type { SqlDb } from '../db.js';

/** A subscription is disabled after this many deliveries in a row failed after every retry. */
export const DISABLE_AFTER_FAILED_DELIVERIES = 5;

interface ClaimRow {
  id: number;
  attempts: number;
  webhook_id: number;
  url: string;
  secret: string;
  format: string;
  slug: string;
  event_id: number;
  org_id: number;
  project_id: number | null;
  run_id: number | null;
  type: string;
  data: string;
  created_at: number;
}

const nullableNumber = (v: number | null): number | null => (v === null ? null : Number(v));

/**
 * Claims up to `limit` pending deliveries due at `now`, the longest due first, by moving
 * their next attempt to `now + leaseMs`: another server (or this one) takes a delivery again
 * only when its lease ends without an outcome (the claimer died: at least once). Claimers on
 * one PostgreSQL skip each other's locked rows, so each delivery goes to one of them.
 */
export function claimDeliveries(db: SqlDb, now: number, leaseMs: number, limit: number): Promise<ClaimedDelivery[]> {
  return db.transaction(async (tx) => {
    const ids = await tx.column<number>(
      `UPDATE webhook_deliveries SET next_attempt_at = ?
       WHERE id IN (SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ?
                    ORDER BY next_attempt_at, id LIMIT ? ${db.dialect.skipLocked})
       RETURNING id`,
      [now + leaseMs, now, limit],
    );
    if (ids.length === 0) return [];
    const rows = await tx.all<ClaimRow>(
      `SELECT d.id, d.attempts, d.webhook_id, w.url, w.secret, w.format, o.slug, e.id AS event_id, e.org_id, e.project_id,
         e.run_id, e.type, e.data, e.created_at
       FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id JOIN events e ON e.id = d.event_id
         JOIN organizations o ON o.id = e.org_id
       WHERE d.id IN (${ids.map(() => '?').join(', ')}) ORDER BY d.id`,
      ids.map(Number),
    );
    return rows.map((r) => ({
      id: Number(r.id),
      attempts: Number(r.attempts),
      webhookId: Number(r.webhook_id),
      url: r.url,
      secret: r.secret,
      format: r.format as WebhookFormat,
      orgSlug: r.slug,
      event: {
        id: Number(r.event_id),
        orgId: Number(r.org_id),
        projectId: nullableNumber(r.project_id),
        runId: nullableNumber(r.run_id),
        type: r.type as EventType,
        data: JSON.parse(r.data) as Record<string, unknown>,
        at: Number(r.created_at),
      },
    }));
  });
}

/**
 * Records one attempt: delivered, pending again at `retryAt`, or failed (no retry left).
 * A success clears the subscription's failure count; a failed delivery adds one, and at
 * DISABLE_AFTER_FAILED_DELIVERIES the subscription is disabled and its pending deliveries failed.
 */
export function recordDelivery(db: SqlDb, o: DeliveryOutcome): Promise<void> {
  const status: DeliveryStatus = o.ok ? 'delivered' : o.retryAt === null ? 'failed' : 'pending';
  return db.transaction(async (tx) => {
    await tx.run(
      `UPDATE webhook_deliveries SET attempts = attempts + 1, status = ?, next_attempt_at = ?, last_attempt_at = ?,
         last_status_code = ?, last_error = ? WHERE id = ?`,
      [status, o.retryAt ?? o.at, o.at, o.statusCode, o.error, o.id],
    );
    if (status === 'delivered') {
      await tx.run('UPDATE webhooks SET failed_deliveries = 0 WHERE id = ?', [o.webhookId]);
    } else if (status === 'failed') {
      await tx.run('UPDATE webhooks SET failed_deliveries = failed_deliveries + 1 WHERE id = ?', [o.webhookId]);
      const disabled = await tx.run(
        'UPDATE webhooks SET disabled_at = ? WHERE id = ? AND disabled_at IS NULL AND failed_deliveries >= ?',
        [o.at, o.webhookId, DISABLE_AFTER_FAILED_DELIVERIES],
      );
      if (disabled > 0) {
        await tx.run(
          `UPDATE webhook_deliveries SET status = 'failed', last_error = ? WHERE webhook_id = ? AND status = 'pending'`,
          ['the subscription was disabled after repeated failures', o.webhookId],
        );
      }
    }
  });
}

interface DeliveryRow {
  id: number;
  webhook_id: number;
  event_id: number;
  type: string;
  status: string;
  attempts: number;
  next_attempt_at: number;
  last_attempt_at: number | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: number;
}

/** The subscription's deliveries, newest first, at most `limit` ([] for another organization's). */
export async function listDeliveries(
  db: SqlDb,
  orgId: number,
  webhookId: number,
  limit: number,
): Promise<DeliveryRecord[]> {
  const rows = await db.all<DeliveryRow>(
    `SELECT d.id, d.webhook_id, d.event_id, e.type, d.status, d.attempts, d.next_attempt_at, d.last_attempt_at,
       d.last_status_code, d.last_error, d.created_at
     FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id JOIN events e ON e.id = d.event_id
     WHERE d.webhook_id = ? AND w.org_id = ? ORDER BY d.id DESC LIMIT ?`,
    [webhookId, orgId, limit],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    webhookId: Number(r.webhook_id),
    eventId: Number(r.event_id),
    eventType: r.type as EventType,
    status: r.status as DeliveryStatus,
    attempts: Number(r.attempts),
    nextAttemptAt: r.status === 'pending' ? Number(r.next_attempt_at) : null,
    lastAttemptAt: nullableNumber(r.last_attempt_at),
    lastStatusCode: nullableNumber(r.last_status_code),
    lastError: r.last_error,
    createdAt: Number(r.created_at),
  }));
}
