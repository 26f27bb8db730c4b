/**
 * Deleting runs (to the trash), restoring them and listing the trash. Every deletion, by a
 * person, a project delete or the retention sweep, goes through runsTrashed: the one place
 * that follows a run leaving the reads (events of issue 31 hook `run.deleted` there).
 */
import { audit } from '../auth/invitations.js';
import { atLeast } from '../domain/roles.js';
import type { MovedRun, TrashedRun } from '../domain/types.js';
import { forbiddenRole, notFound } from '../errors.js';
import type { Ctx, Deps } from './context.js';

/** Most runs one delete, restore or purge call takes. */
export const MAX_RUNS_PER_CALL = 1000;

/**
 * What follows runs moving to the trash (their rows already marked): their metric series
 * leave their projects' reads. The one place every deletion passes.
 */
export async function runsTrashed(deps: Deps, moved: readonly MovedRun[]): Promise<void> {
  if (moved.length > 0)
    await hideTrashedSeries(
      deps,
      moved.map((m) => m.runId),
    );
}

/**
 * Hides the series of runs read as trashed, then shows again those of them that are no
 * longer trashed: a restore may have run between the read and the hide (its own writes
 * done), and a live run's series must never stay hidden. The other way round (a run
 * trashed again after the check keeps its series shown) is what the sweep re-hides.
 * Returns the rows hidden.
 */
async function hideTrashedSeries(deps: Deps, runIds: readonly number[]): Promise<number> {
  const hidden = await deps.series.setRunSeriesHidden(runIds, true);
  const restored = await deps.metadata.listUntrashedIds(runIds);
  if (restored.length > 0) await deps.series.setRunSeriesHidden(restored, false);
  return hidden;
}

/**
 * Members delete, restore and purge only runs they created (docs/api.md §16); admins and
 * owners any run of the organization. Throws FORBIDDEN_ROLE naming the first run of someone
 * else; unknown ids are left to the call's NOT_FOUND.
 */
export async function requireOwnRuns(ctx: Ctx, runIds: readonly number[], verb: string): Promise<void> {
  if (atLeast(ctx.principal.role, 'admin')) return;
  const creators = await ctx.deps.metadata.listRunCreators(ctx.principal.orgId, runIds);
  for (const [runId, creator] of creators) {
    if (creator !== ctx.principal.userId) {
      throw forbiddenRole(`a ${ctx.principal.role} may ${verb} only runs they created; run ${runId} is not theirs`);
    }
  }
}

/** Moves the caller's runs to the trash; NOT_FOUND, changing nothing, for an unknown or foreign id. Returns how many. */
export async function deleteRuns(ctx: Ctx, runIds: readonly number[]): Promise<number> {
  await requireOwnRuns(ctx, runIds, 'delete');
  const moved = await ctx.deps.metadata.trashRuns(ctx.principal.orgId, runIds, Date.now());
  await runsTrashed(ctx.deps, moved);
  await audit(ctx.deps.metadata, ctx.principal, 'run.delete', `runs:${moved.map((m) => m.runId).join(',')}`, null);
  return moved.length;
}

/** Moves a project and its runs to the trash; NOT_FOUND for no such project. Returns how many runs. */
export async function deleteProject(ctx: Ctx, projectName: string): Promise<number> {
  const moved = await ctx.deps.metadata.trashProject(ctx.principal.orgId, projectName, Date.now());
  await runsTrashed(ctx.deps, moved);
  await audit(ctx.deps.metadata, ctx.principal, 'project.delete', `project:${projectName}`, `${moved.length} runs`);
  return moved.length;
}

/**
 * Brings trashed runs back unchanged; NOT_FOUND, changing nothing, for one not in the trash.
 * Their series are shown before the runs' rows change and again after (a trash sweep may
 * have hidden them in between): a failure between the two stores leaves a trashed run's
 * series shown, which the sweep hides again (rehideTrashed), never a live run's hidden.
 * Returns how many.
 */
export async function restoreRuns(ctx: Ctx, runIds: readonly number[]): Promise<number> {
  await requireTrashed(ctx, runIds);
  await requireOwnRuns(ctx, runIds, 'restore');
  const ids = [...new Set(runIds)];
  await ctx.deps.series.setRunSeriesHidden(ids, false);
  const moved = await ctx.deps.metadata.restoreRuns(ctx.principal.orgId, ids);
  await ctx.deps.series.setRunSeriesHidden(ids, false);
  await audit(ctx.deps.metadata, ctx.principal, 'run.restore', `runs:${ids.join(',')}`, null);
  return moved.length;
}

/**
 * Hides again the series of runs trashed at or after `since` (every trashed run for 0): a
 * deletion whose series store write failed or was cut by a kill after its runs' rows changed
 * is completed here. Idempotent; pages through the trash index. Returns the rows changed.
 */
export async function rehideTrashed(deps: Deps, since: number): Promise<number> {
  let changed = 0;
  let after: { deletedAt: number; id: number } | null = null;
  for (;;) {
    const page = await deps.metadata.listTrashedSince(since, after, 500);
    if (page.length === 0) return changed;
    changed += await hideTrashedSeries(
      deps,
      page.map((k) => k.id),
    );
    after = page[page.length - 1]!;
  }
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
