import { parseJsonField } from '../domain/json-field.js';
import type { Run, RunStatus, StatusEvent } from '../domain/types.js';
import { actorOf, type Ctx } from './context.js';
import { recordLiveness } from './liveness.js';
import { type RunSelector, getRunBySelector } from './run-lookup.js';

/** Finds the run (by runId, displayId or externalId) and sets it RUNNING with a `resume` event when it was not. */
export async function resumeRun(ctx: Ctx, selector: RunSelector): Promise<Run> {
  const run = await getRunBySelector(ctx, selector);
  return ctx.deps.metadata.updateStatus(ctx.principal.orgId, run.id, {
    status: 'RUNNING',
    statusMetadata: undefined,
    loggerSettings: undefined,
    source: 'resume',
    at: Date.now(),
    actor: actorOf(ctx),
  });
}

export interface StatusUpdateBody {
  runId: number;
  status: RunStatus;
  statusMetadata?: string | null;
  loggerSettings?: string | null;
}

/**
 * Applies an `api` status write with the precedence and no-op rules. statusMetadata:
 * absent keeps, null/""/"null" clears, JSON replaces; loggerSettings is deep-merged. A
 * RUNNING write is client liveness: a run the server marked stale resumes with a `resume` event.
 */
export async function updateRunStatus(ctx: Ctx, body: StatusUpdateBody): Promise<void> {
  const statusMetadata =
    body.statusMetadata === undefined ? undefined : parseJsonField('statusMetadata', body.statusMetadata);
  const loggerSettings = parseJsonField('loggerSettings', body.loggerSettings);
  if (body.status === 'RUNNING')
    await recordLiveness(ctx, await ctx.deps.metadata.getRunTarget(ctx.principal.orgId, body.runId));
  await ctx.deps.metadata.updateStatus(ctx.principal.orgId, body.runId, {
    status: body.status,
    statusMetadata,
    loggerSettings,
    source: 'api',
    at: Date.now(),
    actor: actorOf(ctx),
  });
}

/** The run's status timeline, oldest first. Throws NOT_FOUND. */
export function statusHistory(ctx: Ctx, runId: number): Promise<StatusEvent[]> {
  return ctx.deps.metadata.listStatusEvents(ctx.principal.orgId, runId);
}
