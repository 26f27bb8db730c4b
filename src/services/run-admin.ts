/**
 * Renaming runs and projects, project settings (retention) and stopping a run from the
 * dashboard or the API.
 */
import type { Run } from '../domain/types.js';
import { BIDI_CONTROL_RULE, hasBidiControl } from '../domain/unicode-text.js';
import { badRequest, conflict } from '../errors.js';
import { checkProjectName } from './run-create.js';
import type { Ctx } from './context.js';

/** Renames one of the caller's live runs. Throws NOT_FOUND, and BAD_REQUEST for a name with a bidirectional control. */
export function renameRun(ctx: Ctx, runId: number, name: string): Promise<void> {
  if (hasBidiControl(name)) throw badRequest(`name must not contain ${BIDI_CONTROL_RULE}`);
  return ctx.deps.metadata.renameRun(ctx.principal.orgId, runId, name, Date.now());
}

/**
 * Renames one of the caller's projects; run ids, display ids and links keep working (old
 * names are looked up by findRenamedProject). Throws NOT_FOUND, CONFLICT, and BAD_REQUEST for a
 * new name that runs/create would refuse.
 */
export function renameProject(ctx: Ctx, projectName: string, newName: string): Promise<void> {
  checkProjectName(newName);
  return ctx.deps.metadata.renameProject(ctx.principal.orgId, projectName, newName, Date.now());
}

/** The project's current name when `name` is a name it had before a rename, else undefined. */
export function findRenamedProject(ctx: Ctx, name: string): Promise<string | undefined> {
  return ctx.deps.metadata.findRenamedProject(ctx.principal.orgId, name);
}

/** A project's settings. Throws NOT_FOUND. */
export async function getProjectSettings(
  ctx: Ctx,
  projectName: string,
): Promise<{ projectName: string; retentionDays: number | null }> {
  return { projectName, retentionDays: await ctx.deps.metadata.getProjectRetention(ctx.principal.orgId, projectName) };
}

/** Sets (null clears) a project's retention in days. Throws NOT_FOUND. */
export function setProjectRetention(ctx: Ctx, projectName: string, retentionDays: number | null): Promise<void> {
  return ctx.deps.metadata.setProjectRetention(ctx.principal.orgId, projectName, retentionDays);
}

/**
 * Stops a RUNNING run: CANCELLED with source `user`, the key and user recorded in the
 * status event's metadata (and the run's statusMetadata). The client learns it from its
 * next heartbeat's answer (`{status: "CANCELLED"}`) and exits. Throws NOT_FOUND, and
 * CONFLICT when the run is not RUNNING.
 */
export async function stopRun(ctx: Ctx, runId: number): Promise<Run> {
  const { orgId, userId, keyId } = ctx.principal;
  const target = await ctx.deps.metadata.getRunTarget(orgId, runId);
  if (target.status !== 'RUNNING') throw conflict(`run ${runId} is ${target.status}, not RUNNING`);
  return ctx.deps.metadata.updateStatus(orgId, runId, {
    status: 'CANCELLED',
    statusMetadata: { reason: 'stopped by a user', stoppedBy: { userId, keyId } },
    loggerSettings: undefined,
    source: 'user',
    at: Date.now(),
  });
}
