/**
 * The chunk records of groups/metrics' batched bucket sums (bucket-batches.ts): one blob per
 * chunk of a segment, in key order. A chunk inside one bucket and the segment sends its stored
 * moments; any other sends the head of its packed points (the header and the values, as
 * CHUNK_READ's last column). One blob a row, not eight columns: measured in-process on the
 * bench's 100 runs × 100,000 steps, PostgreSQL's CPU for the COPY 170–190 ms before, 120 ms after.
 * addChunkRecord is the one place that reads a record's bytes.
 */
import { type RunBucketSums, type StepBuckets } from '../../../domain/step-buckets.js';
import { overlapping } from '../chunks/chunk-rows.js';
import type { ByteSpan, Dialect } from '../db.js';
import { addMoments, addStrided, FITS, HEADER_BYTES, stridedHead } from './bucket-chunks.js';

/** Bytes of a moments record: 8 zero bytes (n = 0: no head starts so), then 5 big-endian numbers. */
const MOMENTS_BYTES = 48;

/**
 * The read of a segment's chunk records (parameters: FITS's six, then overlapping's six), one
 * blob column: a head, or the moments record (zeros, first_step, points, count, mean, mean_lo).
 * Throws when the engine cannot write numbers as bytes (it has no SqlDb.readMany either).
 */
export function chunkRecordRead(dialect: Dialect): string {
  const bytes = dialect.numberBytes;
  if (!bytes) throw new Error(`the ${dialect.name} dialect cannot write numbers as bytes`);
  const moments = [
    dialect.zeroBytes(8),
    bytes('first_step', 'bigint'),
    bytes('points', 'bigint'),
    bytes('count', 'bigint'),
    bytes('COALESCE(mean, 0)', 'double'),
    bytes('COALESCE(mean_lo, 0)', 'double'),
  ].join(' || ');
  return (
    `SELECT CASE WHEN ${FITS} THEN ${moments} ELSE substr(data, 1, CAST(${HEADER_BYTES} + 8 * points AS INTEGER)) ` +
    `END FROM metric_chunks WHERE ${overlapping(0, 0, 0).where} ORDER BY first_step, first_tie`
  );
}

/** The big-endian 64-bit integer at `at` (steps and counts fit in 2^53). */
const int64At = (view: DataView, at: number): number => view.getInt32(at) * 2 ** 32 + view.getUint32(at + 4);

/**
 * Adds a chunk record's points in [from, to] to the sums; returns false, having added
 * nothing, when the chunk lists its steps (or the record is cut short).
 */
export function addChunkRecord(span: ByteSpan, from: number, to: number, b: StepBuckets, sums: RunBucketSums): boolean {
  const { view, at, length } = span;
  if (length === MOMENTS_BYTES && view.getFloat64(at, true) === 0) {
    const firstStep = int64At(view, at + 8);
    const points = int64At(view, at + 16);
    const count = int64At(view, at + 24);
    addMoments(b, sums, [firstStep, points, count, view.getFloat64(at + 32), view.getFloat64(at + 40)]);
    return true;
  }
  if (length < HEADER_BYTES || HEADER_BYTES + 8 * view.getFloat64(at, true) > length || !stridedHead(view, at)) {
    return false;
  }
  addStrided(view, at, from, to, b, sums);
  return true;
}
