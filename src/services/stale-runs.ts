import type { MetadataStore } from '../store/metadata-store.js';

/** Runs examined per sweep pass; a pass repeats while it keeps finding a full page. */
const PAGE = 500;

/** The statusMetadata (and event metadata) of a run the sweep marks FAILED. */
export function staleReason(staleAfterMs: number, lastSeenAt: number): Record<string, unknown> {
  return {
    reason: `stale: no heartbeat, ingest or status write for ${Math.round(staleAfterMs / 1000)} s`,
    source: 'stepwise stale-run sweep',
    lastSeenAt: new Date(lastSeenAt).toISOString(),
    staleAfterSeconds: staleAfterMs / 1000,
  };
}

/**
 * Marks FAILED (source `system`) every RUNNING run silent for longer than `staleAfterMs`
 * at `now`, one conditional write per run, so replicas sweeping the same database at
 * once fail each run exactly once. Returns how many runs this call failed.
 */
export async function sweepStaleRuns(metadata: MetadataStore, staleAfterMs: number, now: number): Promise<number> {
  const before = now - staleAfterMs;
  let failed = 0;
  for (;;) {
    const stale = await metadata.listStaleRuns(before, PAGE);
    let page = 0;
    for (const { runId, lastSeenAt } of stale) {
      if (await metadata.failStaleRun(runId, before, staleReason(staleAfterMs, lastSeenAt), now)) page++;
    }
    failed += page;
    // A full page that failed nothing was lost to other writers: leave it to the next sweep.
    if (stale.length < PAGE || page === 0) return failed;
  }
}

/** A periodic sweep; stop() waits for a sweep in progress. */
export interface StaleRunSweeper {
  stop(): Promise<void>;
}

/**
 * Sweeps every quarter of the stale time (between 250 ms and 60 s); sweeps never overlap
 * and the timer does not keep the process alive. Errors go to `onError`. Disabled when
 * `staleAfterMs` is 0.
 */
export function startStaleRunSweeper(
  metadata: MetadataStore,
  staleAfterMs: number,
  onError: (err: unknown) => void,
  onFailed: (count: number) => void = () => {},
): StaleRunSweeper {
  if (staleAfterMs <= 0) return { stop: () => Promise.resolve() };
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    running = sweepStaleRuns(metadata, staleAfterMs, Date.now())
      .then((n) => n > 0 && onFailed(n), onError)
      .then(() => (running = undefined));
  };
  const timer = setInterval(tick, Math.min(60_000, Math.max(250, Math.floor(staleAfterMs / 4))));
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
