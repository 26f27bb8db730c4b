/** What the outbox records and webhooks deliver (issue 31; docs/api.md §15). */

/** Every event type a subscription may ask for. `webhook.test` is sent only by POST /api/webhooks/{id}/test. */
export const EVENT_TYPES = [
  'run.created',
  'run.status_changed',
  'run.alert',
  'run.stale',
  'run.deleted',
  'alert_rule.triggered',
] as const;
export type EventType = (typeof EVENT_TYPES)[number] | 'webhook.test';

/**
 * Whether an event is a dashboard notification: an alert (the client's or a rule's), a run
 * that failed, or one the stale sweep failed (its status change is left out: `run.stale` tells it).
 */
export function isNotification(e: Pick<NewEvent, 'type' | 'data'>): boolean {
  if (e.type === 'run.alert' || e.type === 'alert_rule.triggered' || e.type === 'run.stale') return true;
  return e.type === 'run.status_changed' && e.data.to === 'FAILED' && e.data.source !== 'system';
}

/** The run an event is about, as its data names it. */
export interface EventRun {
  id: number;
  displayId: string;
  number: number;
  name: string;
  projectName: string;
  status: string;
}

/** One event to append to the outbox; `data` is its JSON `data` object. */
export interface NewEvent {
  orgId: number;
  projectId: number | null;
  runId: number | null;
  type: EventType;
  data: Record<string, unknown>;
  at: number;
}

/** A stored event. */
export interface StoredEvent extends NewEvent {
  id: number;
}

/** How a subscription's deliveries are written: Standard Webhooks JSON, or a Slack message. */
export type WebhookFormat = 'standard' | 'slack';

/** A webhook subscription as stored (its secret only where the store is asked for it). */
export interface WebhookRecord {
  id: number;
  orgId: number;
  projectId: number | null;
  projectName: string | null;
  url: string;
  events: EventType[];
  format: WebhookFormat;
  /** Deliveries that failed after every retry since the last success. */
  failedDeliveries: number;
  disabledAt: number | null;
  createdAt: number;
}

/** What createWebhook stores. */
export interface NewWebhook {
  orgId: number;
  projectId: number | null;
  url: string;
  events: EventType[];
  format: WebhookFormat;
  secret: string;
  createdBy: number | null;
  at: number;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One delivery of an event to a subscription, as GET /api/webhooks/{id}/deliveries lists it. */
export interface DeliveryRecord {
  id: number;
  webhookId: number;
  eventId: number;
  eventType: EventType;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number | null;
  lastAttemptAt: number | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: number;
}

/** A delivery a worker has claimed, with what it needs to send it. */
export interface ClaimedDelivery {
  id: number;
  attempts: number;
  webhookId: number;
  url: string;
  secret: string;
  format: WebhookFormat;
  /** The slug of the event's organization (for links to the dashboard). */
  orgSlug: string;
  event: StoredEvent;
}

/** What a worker records after one attempt. */
export interface DeliveryOutcome {
  id: number;
  webhookId: number;
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  at: number;
  /** When to try again; null when the delivery is done (delivered, or failed after its last retry). */
  retryAt: number | null;
}
