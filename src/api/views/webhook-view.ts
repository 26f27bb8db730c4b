import type { DeliveryRecord, WebhookRecord } from '../../domain/events.js';
import { iso } from '../../domain/iso.js';
import type { Webhook, WebhookDelivery } from '../schemas/webhooks.js';

const isoOrNull = (at: number | null): string | null => (at === null ? null : iso(at));

/** A subscription as the API shows it (never its secret). */
export const webhookView = (w: WebhookRecord): Webhook => ({
  id: w.id,
  url: w.url,
  events: w.events,
  projectName: w.projectName,
  format: w.format,
  enabled: w.disabledAt === null,
  disabledAt: isoOrNull(w.disabledAt),
  failedDeliveries: w.failedDeliveries,
  createdAt: iso(w.createdAt),
});

/** A delivery as GET /api/webhooks/{id}/deliveries lists it. */
export const deliveryView = (d: DeliveryRecord): WebhookDelivery => ({
  id: d.id,
  eventId: d.eventId,
  eventType: d.eventType,
  status: d.status,
  attempts: d.attempts,
  nextAttemptAt: isoOrNull(d.nextAttemptAt),
  lastAttemptAt: isoOrNull(d.lastAttemptAt),
  lastStatusCode: d.lastStatusCode,
  lastError: d.lastError,
  createdAt: iso(d.createdAt),
});
