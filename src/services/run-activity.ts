import type { Alert, DataLine } from '../domain/types.js';
import { assertJsonValue } from '../domain/json-field.js';
import type { ConsoleSearch } from '../store/series-store.js';
import type { Ctx } from './context.js';
import { recordLiveness } from './liveness.js';
import { getProjectRun } from './run-lookup.js';

/**
 * Console lines of a run in production order, paged, each as the JSON text of its answer
 * object, with the matching total. Throws NOT_FOUND.
 */
export async function listLogs(
  ctx: Ctx,
  q: { runId: number; projectName?: string; logType?: string; limit: number; offset: number },
): Promise<{ lines: string[]; total: number }> {
  const run = await getProjectRun(ctx, q.runId, q.projectName);
  return ctx.deps.series.listConsoleJson(run.id, q.logType ?? null, q.limit, q.offset);
}

/**
 * Console lines of a run narrowed to a type, a step range and a text their message contains
 * (ASCII letters folded), in production order, paged, each as listLogs gives it, with the
 * matching total. Throws NOT_FOUND, and QUERY_TIMEOUT past the query deadline.
 */
export async function searchLogs(
  ctx: Ctx,
  q: { runId: number; projectName?: string } & ConsoleSearch & { limit: number; offset: number },
): Promise<{ lines: string[]; total: number }> {
  const run = await getProjectRun(ctx, q.runId, q.projectName);
  const { logType, contains, stepMin, stepMax } = q;
  return ctx.deps.series.searchConsoleJson(run.id, { logType, contains, stepMin, stepMax }, q.limit, q.offset);
}

/** Data lines (histograms, tables, text) of a run, paged, with the matching total. Throws NOT_FOUND. */
export async function listData(
  ctx: Ctx,
  q: { runId: number; projectName?: string; logName?: string; limit: number; offset: number },
): Promise<{ lines: DataLine[]; total: number }> {
  const run = await getProjectRun(ctx, q.runId, q.projectName);
  return ctx.deps.series.listData(run.id, q.logName || null, q.limit, q.offset);
}

/**
 * Records a heartbeat (throttled; resumes a run marked stale); returns the run's status so
 * the client can stop when it was cancelled. Throws NOT_FOUND.
 */
export async function heartbeat(ctx: Ctx, runId: number): Promise<string> {
  return recordLiveness(ctx, await ctx.deps.metadata.getRunTarget(ctx.principal.orgId, runId));
}

export interface AlertBody {
  timestamp?: number | null;
  level?: string | null;
  title?: string | null;
  body?: string | null;
  [extra: string]: unknown;
}

/** Stores an alert of a run. Throws NOT_FOUND. */
export async function createAlert(ctx: Ctx, runId: number, alert: AlertBody): Promise<void> {
  assertJsonValue('alert', alert);
  const now = Date.now();
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  const ts = typeof alert.timestamp === 'number' && Number.isFinite(alert.timestamp) ? alert.timestamp : now;
  // The Python client sends seconds; anything below year 2001 in ms is taken as seconds.
  const alertTime = Math.round(ts < 1e12 ? ts * 1000 : ts);
  await ctx.deps.metadata.createAlert(
    ctx.principal.orgId,
    runId,
    { level: str(alert.level), title: str(alert.title), body: str(alert.body), payload: alert, alertTime },
    now,
  );
}

/** A run's alerts, oldest first. Throws NOT_FOUND. */
export function listAlerts(ctx: Ctx, runId: number): Promise<Alert[]> {
  return ctx.deps.metadata.listAlerts(ctx.principal.orgId, runId);
}
