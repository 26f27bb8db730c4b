/**
 * Deleting runs (to the trash), restoring them and listing the trash. Every deletion, by a
 * person, a project delete or the retention sweep, goes through runsTrashed: the one place
 * that follows a run leaving the reads (events of issue 31 hook `run.deleted` there).
 */
import type { MovedRun, TrashedRun } from '../domain/types.js';
import { notFound } from '../errors.js';
import type { Ctx, Deps } from './context.js';

/** Most runs one delete, restore or purge call takes. */
export const MAX_RUNS_PER_CALL = 1000;

/**
 * What follows runs moving to the trash (their rows already marked): their metric series
 * leave their projects' reads. The one place every deletion passes.
 */
export async function runsTrashed(deps: Deps, moved: readonly MovedRun[]): Promise<void> {
  if (moved.length > 0)
    await deps.series.setRunSeriesHidden(
      moved.map((m) => m.runId),
      true,
    );
}

/** Moves the caller's runs to the trash; NOT_FOUND, changing nothing, for an unknown or foreign id. Returns how many. */
export async function deleteRuns(ctx: Ctx, runIds: readonly number[]): Promise<number> {
  const moved = await ctx.deps.metadata.trashRuns(ctx.principal.orgId, runIds, Date.now());
  await runsTrashed(ctx.deps, moved);
  return moved.length;
}

/** Moves a project and its runs to the trash; NOT_FOUND for no such project. Returns how many runs. */
export async function deleteProject(ctx: Ctx, projectName: string): Promise<number> {
  const moved = await ctx.deps.metadata.trashProject(ctx.principal.orgId, projectName, Date.now());
  await runsTrashed(ctx.deps, moved);
  return moved.length;
}

/** Brings trashed runs back unchanged; NOT_FOUND, changing nothing, for one not in the trash. Returns how many. */
export async function restoreRuns(ctx: Ctx, runIds: readonly number[]): Promise<number> {
  const moved = await ctx.deps.metadata.restoreRuns(ctx.principal.orgId, runIds);
  await ctx.deps.series.setRunSeriesHidden(
    moved.map((m) => m.runId),
    false,
  );
  return moved.length;
}

/** A page of the project's trash, latest trashed first. */
export function listTrash(ctx: Ctx, projectName: string, limit: number, offset: number): Promise<TrashedRun[]> {
  return ctx.deps.metadata.listTrash(ctx.principal.orgId, projectName, limit, offset);
}

/** Throws NOT_FOUND (naming the first) unless every id is one of the caller's trashed runs. */
export async function requireTrashed(ctx: Ctx, runIds: readonly number[]): Promise<void> {
  const found = new Set(await ctx.deps.metadata.listTrashedIds(ctx.principal.orgId, [...new Set(runIds)]));
  const missing = runIds.find((id) => !found.has(id));
  if (missing !== undefined) throw notFound(`run ${missing} not found in the trash`);
}
