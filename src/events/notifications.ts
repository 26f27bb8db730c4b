/** The dashboard's notifications: the organization's alerts, failed and stale runs (docs/api.md §15). */
import type { EventRun, StoredEvent } from '../domain/events.js';
import { encodeRunId } from '../domain/sqid.js';
import type { Ctx } from '../services/context.js';

/** Steps shown on each side of a metric alert's step when its link opens the run's charts. */
const ZOOM_STEPS = 100;

/** Most notifications GET /api/notifications answers. */
export const MAX_NOTIFICATIONS = 50;
/** The unread count stops at this (the bell shows "99+"). */
export const UNREAD_CAP = 100;

/** One notification as the service gives it. */
export interface Notification {
  id: number;
  kind: 'alert' | 'failed' | 'stale';
  title: string;
  text: string | null;
  level: string | null;
  at: number;
  unread: boolean;
  run: (EventRun & { sqid: string }) | null;
  /** The step of a metric alert (an alert rule's crossing). */
  step: number | null;
  /** The dashboard path of the run (for a metric alert, its charts zoomed to the crossing's step ± ZOOM_STEPS). */
  path: string | null;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function toNotification(e: StoredEvent, orgSlug: string, readMark: number): Notification {
  const d = e.data;
  const eventRun = d.run as EventRun | undefined;
  const run = eventRun ? { ...eventRun, sqid: encodeRunId(eventRun.id) } : null;
  const step = e.type === 'alert_rule.triggered' && typeof d.step === 'number' ? d.step : null;
  const kind = e.type === 'run.stale' ? 'stale' : e.type === 'run.status_changed' ? 'failed' : 'alert';
  const name = run ? `${run.displayId} ${run.name}` : 'a run';
  const title =
    kind === 'stale'
      ? `${name} went silent and was marked FAILED`
      : kind === 'failed'
        ? `${name} failed`
        : (str(d.title) ?? 'Alert');
  const text =
    kind === 'alert' ? str(d.text) : kind === 'failed' ? null : str((d.metadata as { reason?: unknown })?.reason);
  const seg = encodeURIComponent;
  const path = run
    ? `/o/${seg(orgSlug)}/projects/${seg(run.projectName)}/${seg(run.sqid)}${step === null ? '' : `?zoom=${Math.max(0, step - ZOOM_STEPS)}-${step + ZOOM_STEPS}`}`
    : null;
  return {
    id: e.id,
    kind,
    title,
    text,
    level: kind === 'alert' ? (str(d.level) ?? 'WARN') : 'ERROR',
    at: e.at,
    unread: e.id > readMark,
    run,
    step,
    path,
  };
}

/** The organization's newest notifications, with how many the user has not read (at most UNREAD_CAP). */
export async function listNotifications(ctx: Ctx): Promise<{ unread: number; items: Notification[] }> {
  const { orgId, orgSlug, userId } = ctx.principal;
  const events = ctx.deps.events;
  const [mark, list] = await Promise.all([
    events.findReadMark(userId),
    events.listNotifications(orgId, MAX_NOTIFICATIONS),
  ]);
  const unread = await events.countNotificationsAfter(orgId, mark, UNREAD_CAP);
  return { unread, items: list.map((e) => toNotification(e, orgSlug, mark)) };
}

/** Marks every notification up to `upToId` (default: the newest) read for the user. */
export async function markNotificationsRead(ctx: Ctx, upToId?: number): Promise<void> {
  const { orgId, userId } = ctx.principal;
  const events = ctx.deps.events;
  const newest = (await events.listNotifications(orgId, 1))[0]?.id ?? 0;
  const until = Math.min(upToId ?? newest, newest);
  if (until > 0) await events.markRead(userId, until);
}
