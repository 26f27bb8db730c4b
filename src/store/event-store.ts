import type {
  ClaimedDelivery,
  DeliveryOutcome,
  DeliveryRecord,
  NewEvent,
  NewWebhook,
  StoredEvent,
  WebhookRecord,
} from '../domain/events.js';
import type { AlertRule, NewAlertRule } from '../domain/alert-rules.js';
import type { RuleTrigger } from './sql/events/alert-rules.js';

/**
 * The outbox and webhook subscriptions (issue 31), on the metadata database. Events of runs
 * are appended by the metadata store in the transaction of the change (sql/events/
 * append-event.ts); `appendEvent` is for a change made elsewhere. Every method taking an
 * orgId treats another organization's subscription as missing.
 */
export interface EventStore {
  /** Appends an event and queues its deliveries in one transaction; returns its id. */
  appendEvent(event: NewEvent): Promise<number>;
  /** Stores a subscription; returns its id. */
  createWebhook(webhook: NewWebhook): Promise<number>;
  /** The organization's subscriptions, newest first, at most `limit`. */
  listWebhooks(orgId: number, limit: number): Promise<WebhookRecord[]>;
  /** One subscription of the organization, or undefined. */
  findWebhook(orgId: number, id: number): Promise<WebhookRecord | undefined>;
  /** Deletes a subscription and its deliveries; false when there is none. */
  deleteWebhook(orgId: number, id: number): Promise<boolean>;
  /** Queues a `webhook.test` event to this subscription only; its delivery's id, or undefined when there is none. */
  queueTestDelivery(orgId: number, id: number, at: number): Promise<number | undefined>;
  /** A subscription's deliveries, newest first, at most `limit`. */
  listDeliveries(orgId: number, webhookId: number, limit: number): Promise<DeliveryRecord[]>;
  /**
   * Claims up to `limit` due deliveries for `leaseMs` (each goes to one claimer; one whose
   * lease ends without an outcome is claimed again), the longest due first.
   */
  claimDeliveries(now: number, leaseMs: number, limit: number): Promise<ClaimedDelivery[]>;
  /** Records an attempt's outcome (and disables a subscription after repeated failed deliveries). */
  recordDelivery(outcome: DeliveryOutcome): Promise<void>;
  /** Stores an alert rule; returns its id. */
  createAlertRule(rule: NewAlertRule): Promise<number>;
  /** A project's alert rules, oldest first, at most `limit`. */
  listAlertRules(projectId: number, limit: number): Promise<AlertRule[]>;
  /** Deletes an alert rule of the organization; false when there is none. */
  deleteAlertRule(orgId: number, id: number): Promise<boolean>;
  /**
   * Records a rule's crossing on a run once (an alert and `alert_rule.triggered`), unless the
   * run's state of the rule is already firing; returns whether it recorded it.
   */
  triggerAlertRule(trigger: RuleTrigger): Promise<boolean>;
  /** Marks a run's state of a rule not firing. */
  resetAlertRule(ruleId: number, runId: number): Promise<void>;
  /** The organization's notification events (alerts, failed and stale runs), newest first, at most `limit`. */
  listNotifications(orgId: number, limit: number): Promise<StoredEvent[]>;
  /** How many notifications are newer than event `afterId`, counting at most `cap`. */
  countNotificationsAfter(orgId: number, afterId: number, cap: number): Promise<number>;
  /** The id of the last event the user has read (0 when none). */
  findReadMark(userId: number): Promise<number>;
  /** Moves the user's read mark forward to `eventId`. */
  markRead(userId: number, eventId: number): Promise<void>;
}
