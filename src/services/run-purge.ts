/**
 * Purging trashed runs for good: on request, and by the trash sweep (after
 * config.trashTtlMs), which also applies project retention. Safe with several servers on
 * one database: each run is purged by one conditional transaction, and the queued work on
 * the series and blob stores is idempotent.
 */
import { audit } from '../auth/invitations.js';
import type { PurgeJob } from '../domain/types.js';
import { AppError } from '../errors.js';
import type { Ctx, Deps } from './context.js';
import { rehideTrashed, requireOwnRuns, requireTrashed, runsTrashed } from './run-trash.js';

/** Runs handled per sweep step; a step repeats while it finds a full page. */
const PAGE = 200;

/**
 * Deletes what the series and blob stores hold of a purged run (blobs first, then the rows
 * naming them, then the queue entry), so a kill at any point leaves the job to run again.
 */
export async function runPurgeJob(deps: Deps, job: PurgeJob): Promise<void> {
  for (const key of await deps.series.listRunBlobKeys(job.runId)) await deps.blobs.delete(key);
  await deps.series.purgeRunData(job.runId, job.keepSeries);
  await deps.metadata.finishPurgeJob(job);
}

/** Purges one trashed run (any organization's when orgId is null) and its queued work; false when it is not in the trash. */
async function purgeOne(deps: Deps, orgId: number | null, runId: number, now: number): Promise<boolean> {
  let jobs: PurgeJob[];
  try {
    jobs = await deps.metadata.purgeRun(orgId, runId, now);
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND') return false;
    throw err;
  }
  for (const job of jobs) await runPurgeJob(deps, job);
  return true;
}

/** Gives the space freed by purges back to the file system (both stores). */
async function reclaim(deps: Deps): Promise<void> {
  await deps.series.reclaimSpace();
  await deps.metadata.reclaimSpace();
}

/**
 * Purges the caller's trashed runs now: NOT_FOUND, changing nothing, unless every id is in
 * the trash. Each run goes in its own transaction. Returns how many were purged.
 */
export async function purgeRuns(ctx: Ctx, runIds: readonly number[]): Promise<number> {
  await requireTrashed(ctx, runIds);
  await requireOwnRuns(ctx, runIds, 'purge');
  let purged = 0;
  for (const runId of new Set(runIds)) {
    if (await purgeOne(ctx.deps, ctx.principal.orgId, runId, Date.now())) purged++;
  }
  await reclaim(ctx.deps);
  await audit(ctx.deps.metadata, ctx.principal, 'run.purge', `runs:${[...new Set(runIds)].join(',')}`, null);
  return purged;
}

/** What one sweep did. */
export interface TrashSweep {
  purged: number;
  trashedByRetention: number;
}

/** Trashes finished runs past their project's retention, a page at a time; returns how many. */
async function sweepRetention(deps: Deps, now: number): Promise<number> {
  let trashed = 0;
  for (;;) {
    const due = await deps.metadata.listRetentionExpired(now, PAGE);
    let page = 0;
    for (const { orgId, runId } of due) {
      try {
        await runsTrashed(deps, await deps.metadata.trashRuns(orgId, [runId], now));
        page++;
      } catch (err) {
        // Another server trashed it first, or it was just deleted: nothing to do.
        if (!(err instanceof AppError && err.code === 'NOT_FOUND')) throw err;
      }
    }
    trashed += page;
    if (due.length < PAGE || page === 0) return trashed;
  }
}

/** Later sweeps hide again the series of runs trashed this recently (the first one: every trashed run). */
const REHIDE_WINDOW_MS = 30 * 60_000;

/**
 * One sweep: the series of runs trashed since `rehideSince` hidden again (rehideTrashed),
 * retention, then purges of runs trashed more than `ttlMs` before `now`
 * (none when ttlMs is 0), then every queued purge job left by an interrupted purge; space
 * is reclaimed when anything was purged. It also deletes the sign-in and registration
 * counts whose window ended (auth/sign-in-limiter.ts), so their table holds live windows only.
 */
export async function sweepTrash(
  deps: Deps,
  ttlMs: number,
  now: number,
  rehideSince: number = now - REHIDE_WINDOW_MS,
): Promise<TrashSweep> {
  await deps.metadata.sweepAttempts(now);
  await rehideTrashed(deps, rehideSince);
  const trashedByRetention = await sweepRetention(deps, now);
  let purged = 0;
  for (;;) {
    if (ttlMs <= 0) break;
    const due = await deps.metadata.listExpiredTrash(now - ttlMs, PAGE);
    let page = 0;
    for (const { runId } of due) if (await purgeOne(deps, null, runId, now)) page++;
    purged += page;
    if (due.length < PAGE || page === 0) break;
  }
  let drained = 0;
  for (;;) {
    const jobs = await deps.metadata.listPurgeQueue(PAGE);
    for (const job of jobs) await runPurgeJob(deps, job);
    drained += jobs.length;
    if (jobs.length < PAGE) break;
  }
  if (purged > 0 || drained > 0) await reclaim(deps);
  return { purged, trashedByRetention };
}

/** A periodic sweep; stop() waits for one in progress. */
export interface TrashSweeper {
  stop(): Promise<void>;
}

/**
 * Sweeps every `intervalMs` (default: a quarter of the TTL, between 1 s and 10 minutes);
 * sweeps never overlap and the timer does not keep the process alive. Errors go to onError.
 */
export function startTrashSweeper(
  deps: Deps,
  onError: (err: unknown) => void,
  onSwept: (sweep: TrashSweep) => void = () => {},
  intervalMs = Math.min(600_000, Math.max(1000, Math.floor(deps.config.trashTtlMs / 4) || 600_000)),
): TrashSweeper {
  let running: Promise<void> | undefined;
  // The first sweep of a process hides every trashed run's series again: a server killed
  // between a deletion's two writes is always restarted before it sweeps.
  let first = true;
  const tick = () => {
    if (running) return;
    const now = Date.now();
    const since = first ? 0 : now - REHIDE_WINDOW_MS;
    first = false;
    running = sweepTrash(deps, deps.config.trashTtlMs, now, since)
      .then((s) => (s.purged > 0 || s.trashedByRetention > 0) && onSwept(s), onError)
      .then(() => (running = undefined));
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  // The first sweep soon after start: it finishes purges a stopped server left queued.
  const soon = setTimeout(tick, 1000);
  soon.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      clearTimeout(soon);
      await running;
    },
  };
}
