/**
 * The chunk pieces of groups/metrics' bucket sums (bucket-sums.ts, bucket-batches.ts): which
 * chunks fit one bucket, the read of a segment's chunks with their heads (header and values),
 * and how a head or a chunk's stored moments add to a run's sums.
 */
import { bucketOf, type RunBucketSums, type StepBuckets } from '../../../domain/step-buckets.js';

/** Bytes of a packed chunk's header (5 float64: n, first step, stride, first time, time form). */
export const HEADER_BYTES = 40;

/** Whether a chunk lies wholly inside [from, to] and one bucket (parameters: from, to, stepMin, width ×2). */
export const FITS =
  'first_step >= ? AND last_step <= ? AND (first_step - CAST(? AS BIGINT)) / CAST(? AS BIGINT) = ' +
  '(last_step - CAST(? AS BIGINT)) / CAST(? AS BIGINT)';

/** Chunk columns read per segment when its heads cannot serve: key, statistics, and the head of a chunk not inside one bucket. */
export const CHUNK_READ =
  `SELECT first_step, first_tie, last_step, points, count, mean, mean_lo, CASE WHEN ${FITS} ` +
  `THEN NULL ELSE substr(data, 1, CAST(${HEADER_BYTES} + 8 * points AS INTEGER)) END FROM metric_chunks WHERE `;

/**
 * Adds the points in [from, to] of the chunk whose head (header, then values) starts at
 * byte `at` of `view`, steps `first + i × stride`, summing each bucket's share apart.
 */
export function addStrided(
  view: DataView,
  at: number,
  from: number,
  to: number,
  b: StepBuckets,
  sums: RunBucketSums,
): void {
  const n = view.getFloat64(at, true);
  const first = view.getFloat64(at + 8, true);
  const stride = view.getFloat64(at + 16, true);
  const values = at + HEADER_BYTES;
  let i = Math.max(0, Math.ceil((from - first) / stride));
  const last = Math.min(n - 1, Math.floor((to - first) / stride));
  while (i <= last) {
    const k = bucketOf(b, first + i * stride);
    const end = Math.min(last, Math.floor((b.stepMin + (k + 1) * b.width - 1 - first) / stride));
    let sum = 0;
    let count = 0;
    let nonFinite = 0;
    for (; i <= end; i++) {
      const v = view.getFloat64(values + 8 * i, true);
      if (v - v === 0) {
        sum += v;
        count++;
      } else nonFinite++;
    }
    sums.addPiece(k, sum, count, nonFinite);
  }
}

/** Whether a head of `bytes` at byte `at` is a strided chunk's, whole. */
export function stridedHead(view: DataView, at: number): boolean {
  if (at + HEADER_BYTES > view.byteLength) return false;
  const n = view.getFloat64(at, true);
  return n >= 1 && view.getFloat64(at + 16, true) > 0 && at + HEADER_BYTES + 8 * n <= view.byteLength;
}

/** Adds a fitting chunk's stored moments (row: first_step, points, count, mean, mean_lo). */
export function addMoments(b: StepBuckets, sums: RunBucketSums, r: readonly unknown[]): void {
  const count = Number(r[2]);
  const mean = count > 0 ? Number(r[3]) : 0;
  const meanLo = count > 0 ? Number(r[4] ?? 0) : 0;
  sums.addMoments(bucketOf(b, Number(r[0])), count, mean, meanLo, Number(r[1]) - count);
}
