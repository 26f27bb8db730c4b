import { Type, type Static } from '@sinclair/typebox';
import { EVENT_TYPES } from '../../domain/events.js';
import { StringEnum } from '../schema-helpers.js';

/** An event type a subscription may ask for. */
export const EventTypeName = StringEnum(EVENT_TYPES);
export type EventTypeName = Static<typeof EventTypeName>;

/** A webhook subscription as GET /api/webhooks lists it (never its secret). */
export const Webhook = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  projectName: Type.Union([Type.String(), Type.Null()], { description: 'Only this project’s events; null: all.' }),
  format: Type.String({ description: '`standard` (Standard Webhooks JSON) or `slack`.' }),
  enabled: Type.Boolean({ description: 'False once disabled after repeated failed deliveries.' }),
  disabledAt: Type.Union([Type.String(), Type.Null()]),
  failedDeliveries: Type.Integer({ description: 'Deliveries failed after every retry since the last success.' }),
  createdAt: Type.String(),
});
export type Webhook = Static<typeof Webhook>;

/** The answer of POST /api/webhooks: the subscription with its signing secret, shown this once. */
export const CreatedWebhook = Type.Composite([
  Webhook,
  Type.Object({
    secret: Type.String({ description: 'The Standard Webhooks signing secret (`whsec_…`); answered only here.' }),
  }),
]);
export type CreatedWebhook = Static<typeof CreatedWebhook>;

/** The answer of GET /api/webhooks. */
export const WebhookList = Type.Object({
  webhooks: Type.Array(Webhook),
  eventTypes: Type.Array(EventTypeName, { description: 'Every event type a webhook may ask for.' }),
});
export type WebhookList = Static<typeof WebhookList>;

/** One delivery of an event to a subscription. */
export const WebhookDelivery = Type.Object({
  id: Type.Integer(),
  eventId: Type.Integer(),
  eventType: Type.String(),
  status: Type.String({ description: '`pending`, `delivered` or `failed` (no retry left).' }),
  attempts: Type.Integer(),
  nextAttemptAt: Type.Union([Type.String(), Type.Null()], { description: 'When a pending delivery is tried next.' }),
  lastAttemptAt: Type.Union([Type.String(), Type.Null()]),
  lastStatusCode: Type.Union([Type.Integer(), Type.Null()], { description: 'The receiver’s last HTTP status.' }),
  lastError: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
});
export type WebhookDelivery = Static<typeof WebhookDelivery>;

/** The answer of GET /api/webhooks/{id}/deliveries: newest first, at most 200. */
export const WebhookDeliveryList = Type.Object({ deliveries: Type.Array(WebhookDelivery) });
export type WebhookDeliveryList = Static<typeof WebhookDeliveryList>;

/** The answer of POST /api/webhooks/{id}/test. */
export const WebhookTest = Type.Object({ deliveryId: Type.Integer() });
export type WebhookTest = Static<typeof WebhookTest>;
