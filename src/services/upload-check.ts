/**
 * How the server learns that a direct upload finished. With a blob store whose upload links
 * point straight at the storage service (S3), the bytes never pass through Stepwise, so a
 * file record stays "awaiting bytes" until someone asks the store. Listing a run's files
 * does that: it asks (HEAD) about that run's newest pending records, a bounded number at a
 * time, and marks those whose blob exists as uploaded with its real size. Every replica
 * does the same against the shared database and bucket; marking twice is harmless.
 */
import type { Deps } from './context.js';

/** Pending records older than this are no longer checked (upload links live 24 hours). */
export const PENDING_WINDOW_MS = 2 * 24 * 60 * 60 * 1000;
/** At most this many pending records are checked per listing (the newest first). */
export const PENDING_CHECK_LIMIT = 200;
/** Checks run this many at a time. */
const PARALLEL = 16;

/**
 * Marks the run's recently created pending files whose bytes have arrived as uploaded.
 * Does nothing for a blob store that receives uploads itself. A failed check leaves the
 * record pending (checked again on the next listing). Returns how many were marked.
 */
export async function confirmDirectUploads(deps: Deps, runId: number, now = Date.now()): Promise<number> {
  if (!deps.blobs.directUploads) return 0;
  const pending = await deps.series.listPendingFiles(runId, now - PENDING_WINDOW_MS, PENDING_CHECK_LIMIT);
  let marked = 0;
  for (let i = 0; i < pending.length; i += PARALLEL) {
    await Promise.all(
      pending.slice(i, i + PARALLEL).map(async (f) => {
        const size = await deps.blobs.stat(f.blobKey).catch(() => undefined);
        if (size !== undefined && (await deps.series.markFileUploaded(f.blobKey, size, now))) marked++;
      }),
    );
  }
  return marked;
}
