/**
 * Bucket sums of many runs at once, where the engine has SqlDb.readMany (PostgreSQL): the
 * runs are taken in batches; a batch's segments are read in PARTS statements at once, each
 * on a connection of its own and each sending one record per chunk (chunk-records.ts), summed
 * as they arrive. A run's sums get the same additions in the same order as a read run by run
 * (bucket-sums.ts), so the answers are the same to the bit. A run whose segments overlap,
 * or with a chunk whose steps are listed, is read again alone by `alone`.
 */
import { queryTimeout } from '../../../errors.js';
import { RunBucketSums, type StepBuckets } from '../../../domain/step-buckets.js';
import type { BucketWindow } from '../../series-store.js';
import { overlapping } from '../chunks/chunk-rows.js';
import { segmentsOf, type Segment } from '../chunks/chunk-sample.js';
import type { ByteSpan, ColumnForm, SqlDb } from '../db.js';
import { addChunkRecord, chunkRecordRead } from './chunk-records.js';
import type { LineageMetric } from './lineage-series.js';

/** Sums one batch holds at most (runs × buckets; 32 bytes each: 32 MB). */
const BATCH_SUMS = 1_000_000;
/**
 * Statements of a batch run at once. Measured in-process on the bench's 100 series of
 * 100,000 points: one statement 420–560 ms, two 270–300 ms, four 180–270 ms (2 cores).
 */
const PARTS = 4;
/** Rows read between checks of the deadline. */
const CHECK_EVERY = 256;

/** The form of the records' one column. */
const RECORD_FORMS: readonly ColumnForm[] = ['span'];

/** A run of a batch: its segments (null when they overlap), its sums, and whether it must be read alone. */
interface Planned {
  runId: number;
  metric: LineageMetric;
  segments: Segment[] | null;
  sums: RunBucketSums;
  alone: boolean;
}

/** The batch's runs with segments in up to PARTS runs of runs, each of about the same steps. */
function partsOf(plans: readonly Planned[]): Planned[][] {
  const read = plans.filter((p) => p.segments !== null && p.segments.length > 0);
  const weight = (p: Planned) => p.segments!.reduce((n, s) => n + s.to - s.from + 1, 0);
  const total = read.reduce((n, p) => n + weight(p), 0);
  const parts: Planned[][] = [[]];
  let done = 0;
  for (const p of read) {
    if (parts.length < PARTS && done >= (total * parts.length) / PARTS && parts.at(-1)!.length > 0) parts.push([]);
    parts.at(-1)!.push(p);
    done += weight(p);
  }
  return parts.filter((part) => part.length > 0);
}

/** Reads one part's segments in one statement, adding each chunk to its run's sums as it comes. */
async function readPart(db: SqlDb, part: readonly Planned[], b: StepBuckets, check: () => void): Promise<void> {
  const segs: { seg: Segment; plan: Planned }[] = [];
  const params: number[][] = [];
  for (const plan of part) {
    for (const seg of plan.segments!) {
      segs.push({ seg, plan });
      const range = overlapping(seg.seriesId, seg.from, seg.to);
      params.push([seg.from, seg.to, b.stepMin, b.width, b.stepMin, b.width, ...(range.params as number[])]);
    }
  }
  let rows = 0;
  await db.readMany!(chunkRecordRead(db.dialect), params, RECORD_FORMS, (i, r) => {
    if (++rows % CHECK_EVERY === 0) check();
    const { seg, plan } = segs[i]!;
    if (plan.alone) return;
    const record = r[0] as ByteSpan | null;
    if (record === null || !addChunkRecord(record, seg.from, seg.to, b, plan.sums)) plan.alone = true;
  });
}

/**
 * Each run's sums, in the order of `metrics` (runs without the metric left out); `alone`
 * adds a run's metric by itself. Throws QUERY_TIMEOUT once the window's deadline has passed.
 */
export async function* batchedSums(
  db: SqlDb,
  metrics: readonly { runId: number; metric: LineageMetric | undefined }[],
  b: StepBuckets,
  range: BucketWindow,
  alone: (metric: LineageMetric, sums: RunBucketSums) => Promise<void>,
): AsyncGenerator<{ runId: number; sums: RunBucketSums }> {
  const check = () => {
    if (range.deadline > 0 && Date.now() > range.deadline) throw queryTimeout(range.timeoutMs);
  };
  const present = metrics.filter((m): m is { runId: number; metric: LineageMetric } => m.metric !== undefined);
  const per = Math.max(1, Math.floor(BATCH_SUMS / b.count));
  for (let at = 0; at < present.length; at += per) {
    check();
    const plans = present.slice(at, at + per).map(({ runId, metric }) => ({
      runId,
      metric,
      segments: segmentsOf(metric, b.stepMin, b.stepMax),
      sums: new RunBucketSums(b.count),
      alone: false,
    }));
    await Promise.all(partsOf(plans).map((part) => readPart(db, part, b, check)));
    for (const p of plans) {
      if (p.segments === null || p.alone) {
        check();
        p.sums = new RunBucketSums(b.count);
        await alone(p.metric, p.sums);
      }
      yield { runId: p.runId, sums: p.sums };
    }
  }
}
