import type { RunStatus, RunTarget } from '../domain/types.js';
import type { MetadataStore } from '../store/metadata-store.js';
import type { Ctx } from './context.js';

/** Longest gap between two liveness writes of one run by one process. */
const MAX_THROTTLE_MS = 5000;
/** Forget everything past this many runs (a write too many is harmless). */
const MAX_TRACKED = 100_000;

/** Per metadata store: when this process last wrote each run's liveness. */
const lastWrites = new WeakMap<MetadataStore, Map<number, number>>();

/** The throttle for a stale time: at most a quarter of it, at most 5 s. */
export const livenessThrottleMs = (staleAfterMs: number): number =>
  staleAfterMs > 0 ? Math.max(1, Math.min(MAX_THROTTLE_MS, Math.floor(staleAfterMs / 4))) : MAX_THROTTLE_MS;

/**
 * Records that a run's client is alive (ingest, files, heartbeat, a RUNNING status write).
 * A run the server marked stale (FAILED by `system`) is resumed to RUNNING with a `resume`
 * event; otherwise `last_seen_at` is written at most once per throttle per run, so the
 * hot path usually costs one map lookup. Returns the run's status afterwards.
 */
export async function recordLiveness(ctx: Ctx, run: RunTarget): Promise<RunStatus> {
  const { metadata, config } = ctx.deps;
  let seen = lastWrites.get(metadata);
  if (!seen) lastWrites.set(metadata, (seen = new Map()));
  const now = Date.now();
  const last = seen.get(run.id);
  // A run silent long enough to be marked stale is never within the throttle of a write.
  if (last !== undefined && now - last < livenessThrottleMs(config.staleAfterMs)) return run.status;
  if (seen.size >= MAX_TRACKED) seen.clear();
  seen.set(run.id, now);
  if (run.status === 'FAILED' && (await metadata.resumeStaleRun(run.orgId, run.id, now))) return 'RUNNING';
  await metadata.touchRun(run.id, now);
  return run.status;
}
