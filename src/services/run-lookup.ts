import { parseDisplayId } from '../domain/display-id.js';
import type { Run, RunHead } from '../domain/types.js';
import { badRequest, notFound } from '../errors.js';
import type { Ctx } from './context.js';

export interface RunSelector {
  runId?: number | null;
  displayId?: string | null;
  externalId?: string | null;
  projectName?: string | null;
}

/** The run a display id names (any case), optionally checked against a project. Throws NOT_FOUND/BAD_REQUEST. */
export async function getRunByDisplayId(ctx: Ctx, displayId: string, projectName?: string): Promise<Run> {
  const parsed = parseDisplayId(displayId);
  if (!parsed) throw badRequest(`displayId must look like PREFIX-NUMBER, got ${JSON.stringify(displayId)}`);
  const run = await ctx.deps.metadata.findRunByDisplayId(
    ctx.principal.orgId,
    parsed.prefix,
    parsed.number,
    projectName,
  );
  if (!run) throw notFound(`run ${displayId} not found`);
  return run;
}

/**
 * The run named by exactly one of runId, displayId or externalId (+ projectName).
 * Throws BAD_REQUEST for a wrong combination, NOT_FOUND when there is no such run.
 */
export async function getRunBySelector(ctx: Ctx, s: RunSelector): Promise<Run> {
  const given = [s.runId, s.displayId, s.externalId].filter((v) => v !== undefined && v !== null).length;
  if (given !== 1) throw badRequest('exactly one of runId, displayId or externalId is required');
  const projectName = s.projectName ?? undefined;
  if (s.runId !== undefined && s.runId !== null) {
    const run = await ctx.deps.metadata.getRun(ctx.principal.orgId, s.runId);
    if (projectName !== undefined && run.projectName !== projectName)
      throw notFound(`run ${s.runId} not found in project ${projectName}`);
    return run;
  }
  if (s.displayId !== undefined && s.displayId !== null) return getRunByDisplayId(ctx, s.displayId, projectName);
  if (projectName === undefined) throw badRequest('projectName is required when externalId is used');
  const run = await ctx.deps.metadata.findRunByExternalId(ctx.principal.orgId, projectName, s.externalId!);
  if (!run) throw notFound(`run with externalId ${JSON.stringify(s.externalId)} not found in project ${projectName}`);
  return run;
}

/**
 * The run without its JSON fields (none of them read), which must belong to the named project
 * when one is given. Throws NOT_FOUND.
 */
export async function getProjectRun(ctx: Ctx, runId: number, projectName: string | undefined): Promise<RunHead> {
  const run = await ctx.deps.metadata.findRunHead(ctx.principal.orgId, { runId });
  if (!run) throw notFound(`run ${runId} not found`);
  if (projectName !== undefined && run.projectName !== projectName)
    throw notFound(`run ${runId} not found in project ${projectName}`);
  return run;
}
