/**
 * Per-run bucket sums of one metric for groups/metrics: each run's effective points (forks
 * with their lineage's, a re-logged step once) summed per equal-width step bucket. A chunk
 * that lies wholly inside one bucket and one segment adds its stored moments (count, the
 * double-double mean; chunk statistics are recomputed from the chunk's points on every write,
 * so they hold the effective own points); only chunks that straddle a bucket edge or a
 * segment end are decoded, and the database sends their points only.
 */
import { bucketOf, RunBucketSums, stepBuckets, type StepBuckets } from '../../../domain/step-buckets.js';
import { keyedByTime } from '../../../domain/time-keyed.js';
import { queryTimeout } from '../../../errors.js';
import { TimeSlice } from '../../../time-slice.js';
import type { BucketWindow, RunLineage } from '../../series-store.js';
import { lowerBound, viewChunk } from '../chunks/chunk-codec.js';
import { overlapping, readChunk } from '../chunks/chunk-rows.js';
import { segmentsOf, type Segment } from '../chunks/chunk-sample.js';
import type { SqlDb } from '../db.js';
import { effectivePages } from './effective-points.js';
import { lineageMetrics, type LineageMetric } from './lineage-series.js';
import { clampStep, SERIES_COLUMNS, seriesRows } from './series-row.js';
import { chunks, IN_CHUNK } from '../util.js';
import { addMoments, addStrided, CHUNK_READ, FITS, HEADER_BYTES, stridedHead } from './bucket-chunks.js';
import { batchedSums } from './bucket-batches.js';

/** A run's metric as its lineage shows it (undefined: the run has no visible point of it). */
export interface RunMetric {
  runId: number;
  metric: LineageMetric | undefined;
}

/** The metric of each run: unforked runs' series rows in one query per IN_CHUNK runs, forks through their lineage. */
async function runMetrics(db: SqlDb, runs: readonly RunLineage[], logName: string): Promise<RunMetric[]> {
  const own = new Map<number, number>();
  for (const r of runs)
    if (r.lineage.length === 1 && r.lineage[0]!.runId === r.runId) own.set(r.runId, r.lineage[0]!.maxStep);
  const rows = new Map<number, LineageMetric>();
  for (const ids of chunks([...own.keys()], IN_CHUNK)) {
    const found = await seriesRows(
      db,
      `SELECT ${SERIES_COLUMNS} FROM series WHERE log_name = ? AND run_id IN (${ids.map(() => '?').join(', ')})`,
      [logName, ...ids],
    );
    for (const row of found) {
      if (row.first_step === null) continue;
      const maxStep = clampStep(own.get(Number(row.run_id)) ?? -Infinity);
      if (Number(row.first_step) > maxStep) continue;
      const source = { seriesId: Number(row.id), maxStep, byTime: keyedByTime(logName), row };
      rows.set(Number(row.run_id), { logName, logGroup: row.log_group, sources: [source] });
    }
  }
  const out: RunMetric[] = [];
  for (const r of runs) {
    const metric = own.has(r.runId)
      ? rows.get(r.runId)
      : (await lineageMetrics(db, r.lineage, { logNames: [logName] }))[0];
    out.push({ runId: r.runId, metric });
  }
  return out;
}

/** The lowest and highest visible step of the metrics, or undefined when none has a point. */
function extentOf(metrics: readonly RunMetric[]): { first: number; last: number } | undefined {
  let first = Infinity;
  let last = -Infinity;
  for (const { metric } of metrics) {
    for (const s of metric?.sources ?? []) {
      if (s.row.first_step === null || s.row.max_step === null) continue;
      first = Math.min(first, Number(s.row.first_step));
      last = Math.max(last, Math.min(Number(s.row.max_step), s.maxStep));
    }
  }
  return first <= last ? { first, last } : undefined;
}

/** Bytes standing for a chunk that fits a bucket in a segment's joined heads: n = 0, which no chunk has. */
const MARK_BYTES = 8;

/**
 * Per chunk of a segment, in key order: a mark when it fits one bucket, else the first
 * 40 + 8 × points bytes of its packed points (chunks/chunk-codec.ts), the header and the
 * values when its steps are strided (the usual case), without the times; joined into one
 * blob, so the read makes no row or buffer per chunk.
 */
const headsRead = (db: SqlDb, where: string): string =>
  db.dialect.joinBlobs(
    `CASE WHEN ${FITS} THEN ${db.dialect.zeroBytes(MARK_BYTES)} ` +
      `ELSE substr(data, 1, CAST(${HEADER_BYTES} + 8 * points AS INTEGER)) END`,
    `metric_chunks WHERE ${where}`,
    'first_step, first_tie',
  );

/**
 * The stored moments of the chunks of a segment that fit a bucket, in key order: through
 * metric_chunk_extremes, which holds the columns FITS tests, so only the few fitting chunks'
 * rows are read. SQLite's planner takes the primary key and reads every chunk's row: on the
 * bench's 100 series of 100,000 points, 23 ms of CPU a call (one thread) instead of 8.
 */
const momentsRead = (db: SqlDb, where: string): string =>
  `SELECT first_step, points, count, mean, mean_lo FROM metric_chunks ${db.dialect.throughIndex('metric_chunk_extremes')} ` +
  `WHERE ${FITS} AND ${where} ORDER BY first_step, first_tie`;

/**
 * Adds one segment from its joined heads: strided chunks from their values, marked ones from
 * their moments (a second read, only when there are any). Returns false, having added
 * nothing, when a chunk lists its steps or the reads disagree (a write between them).
 */
async function addSegmentHeads(db: SqlDb, seg: Segment, b: StepBuckets, sums: RunBucketSums): Promise<boolean> {
  const range = overlapping(seg.seriesId, seg.from, seg.to);
  const fits = [seg.from, seg.to, b.stepMin, b.width, b.stepMin, b.width];
  const [heads] = await db.column<Uint8Array | null>(headsRead(db, range.where), [...fits, ...range.params]);
  if (!heads) return true;
  const view = new DataView(heads.buffer, heads.byteOffset, heads.byteLength);
  const starts: number[] = [];
  let marks = 0;
  for (let at = 0; at < heads.byteLength;) {
    starts.push(at);
    if (at + MARK_BYTES <= heads.byteLength && view.getFloat64(at, true) === 0) {
      marks++;
      at += MARK_BYTES;
      continue;
    }
    if (!stridedHead(view, at)) return false;
    at += HEADER_BYTES + 8 * view.getFloat64(at, true);
  }
  const moments = marks > 0 ? await db.allArrays(momentsRead(db, range.where), [...fits, ...range.params]) : [];
  if (moments.length !== marks) return false;
  let m = 0;
  for (const at of starts) {
    if (view.getFloat64(at, true) !== 0) {
      addStrided(view, at, seg.from, seg.to, b, sums);
      continue;
    }
    const r = moments[m++]!;
    addMoments(b, sums, r);
  }
  return true;
}

/** Adds one segment's points to the sums: by its joined heads, else chunk by chunk. */
async function addSegment(db: SqlDb, seg: Segment, b: StepBuckets, sums: RunBucketSums): Promise<void> {
  if (await addSegmentHeads(db, seg, b, sums)) return;
  const range = overlapping(seg.seriesId, seg.from, seg.to);
  const fits = [seg.from, seg.to, b.stepMin, b.width, b.stepMin, b.width];
  const rows = await db.allArrays(`${CHUNK_READ}${range.where} ORDER BY first_step, first_tie`, [
    ...fits,
    ...range.params,
  ]);
  for (const r of rows) {
    const head = r[7] as Uint8Array | null;
    if (head === null) {
      addMoments(b, sums, [r[0], r[3], r[4], r[5], r[6]]);
      continue;
    }
    const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
    if (stridedHead(view, 0)) {
      addStrided(view, 0, seg.from, seg.to, b, sums);
      continue;
    }
    const row = await readChunk(db, seg.seriesId, { step: Number(r[0]), tie: Number(r[1]) });
    if (!row) continue;
    const { steps, values } = viewChunk(row.data);
    for (let i = lowerBound(steps, seg.from); i < steps.length && steps[i]! <= seg.to; i++) {
      sums.addPoint(bucketOf(b, steps[i]!), values[i]!);
    }
  }
}

/** Adds a metric's effective points in the buckets' range, by segments when they do not overlap, else point by point. */
export async function addMetric(db: SqlDb, metric: LineageMetric, b: StepBuckets, sums: RunBucketSums): Promise<void> {
  const segments = segmentsOf(metric, b.stepMin, b.stepMax);
  if (segments !== null) {
    for (const seg of segments) await addSegment(db, seg, b, sums);
    return;
  }
  for await (const page of effectivePages(db, metric.sources, b.stepMin, b.stepMax)) {
    for (const p of page) sums.addPoint(bucketOf(b, p.step), p.value ?? (p.flag === 1 ? NaN : Infinity));
  }
}

/**
 * Sums the runs' metrics somewhere else than on the caller's thread (the embedded store's
 * bucket threads): each run's sums, runs without the metric left out, in the order given.
 */
export type RunSummer = (
  metrics: readonly RunMetric[],
  b: StepBuckets,
  range: BucketWindow,
) => AsyncIterable<{ runId: number; sums: RunBucketSums }>;

/**
 * The buckets of the runs' metric over [stepMin, stepMax] (each bound defaulting to the
 * runs' lowest or highest visible step), at most `limit`; undefined when no run has a point
 * in range. `sums` yields each run's sums in run order (runs without a point of the metric
 * are left out); it throws QUERY_TIMEOUT once `deadline` (epoch ms, 0 = none) has passed.
 * The runs are summed by `elsewhere` when given (the embedded store's bucket threads), else
 * in batches through db.readMany where the engine has it (bucket-batches.ts), else run by run
 * here, yielding to the event loop between runs. All three add the same pieces in the same
 * order, so each run's sums are the same to the bit.
 */
export async function bucketSums(
  db: SqlDb,
  runs: readonly RunLineage[],
  logName: string,
  range: BucketWindow,
  elsewhere?: RunSummer,
): Promise<{ buckets: StepBuckets; sums: AsyncIterable<{ runId: number; sums: RunBucketSums }> } | undefined> {
  const metrics = await runMetrics(db, runs, logName);
  const extent = extentOf(metrics);
  if (!extent) return undefined;
  const stepMin = Math.max(range.stepMin ?? extent.first, 0);
  const stepMax = Math.min(range.stepMax ?? extent.last, clampStep(Infinity));
  if (stepMin > stepMax) return undefined;
  const buckets = stepBuckets(stepMin, stepMax, range.limit);
  if (elsewhere) return { buckets, sums: elsewhere(metrics, buckets, range) };
  if (db.readMany) {
    const alone = (metric: LineageMetric, sums: RunBucketSums) => addMetric(db, metric, buckets, sums);
    return { buckets, sums: batchedSums(db, metrics, buckets, range, alone) };
  }
  async function* each(): AsyncGenerator<{ runId: number; sums: RunBucketSums }> {
    const slice = new TimeSlice();
    for (const { runId, metric } of metrics) {
      if (!metric) continue;
      if (range.deadline > 0 && Date.now() > range.deadline) throw queryTimeout(range.timeoutMs);
      await slice.tick();
      const sums = new RunBucketSums(buckets.count);
      await addMetric(db, metric, buckets, sums);
      yield { runId, sums };
    }
  }
  return { buckets, sums: each() };
}
