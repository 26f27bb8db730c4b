import type { EventStore } from '../event-store.js';
import { bindStore, storeClass } from './bind-store.js';
import type { SqlDb } from './db.js';
import { appendEvent } from './events/append-event.js';
import { countNotificationsAfter, findReadMark, listNotifications, markRead } from './events/notifications.js';
import {
  createAlertRule,
  deleteAlertRule,
  listAlertRules,
  resetAlertRule,
  triggerAlertRule,
} from './events/alert-rules.js';
import { claimDeliveries, listDeliveries, recordDelivery } from './events/deliveries.js';
import { createWebhook, deleteWebhook, findWebhook, listWebhooks, queueTestDelivery } from './events/webhooks.js';

/** EventStore over any SqlDb (the metadata database), one implementation for every engine. */
export const SqlEventStore = storeClass((db: SqlDb): EventStore =>
  bindStore<EventStore>(db, {
    appendEvent,
    createWebhook,
    listWebhooks,
    findWebhook,
    deleteWebhook,
    queueTestDelivery,
    listDeliveries,
    claimDeliveries,
    recordDelivery,
    createAlertRule,
    listAlertRules,
    deleteAlertRule,
    triggerAlertRule,
    resetAlertRule,
    listNotifications,
    countNotificationsAfter,
    findReadMark,
    markRead,
  }),
);
export type SqlEventStore = EventStore;
