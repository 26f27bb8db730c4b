/**
 * Counting the points a metrics read asks for before it is read, so that a read over the
 * bound is refused before its answer starts: per metric, min(limit, its effective points in
 * the step range). A series seen whole counts from its row; one cut by the step range or a
 * fork's step counts from the chunk index, decoding only the (at most two) chunks cut; a
 * fork child that re-logged inherited steps is counted by merging, up to `limit`.
 */
import type { LineageLink } from '../../../domain/types.js';
import type { MetricQuery } from '../../series-store.js';
import { lowerBound, viewChunk } from '../chunks/chunk-codec.js';
import { overlapping, readChunk } from '../chunks/chunk-rows.js';
import { segmentsOf, type Segment } from '../chunks/chunk-sample.js';
import type { SqlDb } from '../db.js';
import { effectivePages } from './effective-points.js';
import { queriedMetrics, type LineageMetric } from './lineage-series.js';
import { clampStep, type SeriesRow } from './series-row.js';

/**
 * Returns the number of points metricSeries(lineage, q) answers at most: per metric, min(q.limit,
 * its effective points in [stepMin, stepMax]), summed. Stops as soon as the sum passes
 * `stopAbove` and returns that partial sum (above it). Yields to the event loop between series.
 */
export async function countMetricPoints(
  db: SqlDb,
  lineage: readonly LineageLink[],
  q: MetricQuery,
  stopAbove = Infinity,
): Promise<number> {
  const stepMin = clampStep(q.stepMin);
  const stepMax = clampStep(q.stepMax);
  let total = 0;
  for await (const metric of queriedMetrics(db, lineage, q)) {
    total += await metricPoints(db, metric, stepMin, stepMax, q.limit);
    if (total > stopAbove) return total;
  }
  return total;
}

/**
 * Returns, in one pass over the metrics, what countMetricPoints(lineage, q, stopAbove) returns
 * (`answered`) and the metrics' effective points in [stepMin, stepMax] before sampling
 * (`total`: exact only when `answered` is not above `stopAbove`, where it stops).
 */
export async function tallyMetricPoints(
  db: SqlDb,
  lineage: readonly LineageLink[],
  q: MetricQuery,
  stopAbove = Infinity,
): Promise<{ answered: number; total: number }> {
  const stepMin = clampStep(q.stepMin);
  const stepMax = clampStep(q.stepMax);
  let answered = 0;
  let total = 0;
  for await (const metric of queriedMetrics(db, lineage, q)) {
    const n = await metricPoints(db, metric, stepMin, stepMax, Number.MAX_SAFE_INTEGER);
    answered += Math.min(q.limit, n);
    total += n;
    if (answered > stopAbove) break;
  }
  return { answered, total };
}

/** min(cap, the metric's effective points in [stepMin, stepMax]). */
async function metricPoints(
  db: SqlDb,
  metric: LineageMetric,
  stepMin: number,
  stepMax: number,
  cap: number,
): Promise<number> {
  const segments = segmentsOf(metric, stepMin, stepMax);
  let n = 0;
  if (segments === null) {
    for await (const page of effectivePages(db, metric.sources, stepMin, stepMax)) {
      n += page.length;
      if (n >= cap) break;
    }
    return Math.min(cap, n);
  }
  for (const seg of segments) {
    const row = rowOf(metric, seg);
    n += row ? (wholePoints(seg, row) ?? (await cutPoints(db, seg))) : 0;
    if (n >= cap) break;
  }
  return Math.min(cap, n);
}

const rowOf = (metric: LineageMetric, seg: Segment): SeriesRow | undefined =>
  metric.sources.find((s) => s.seriesId === seg.seriesId)?.row;

/** The row's point count when the segment holds its whole series, else null. */
const wholePoints = (seg: Segment, row: SeriesRow): number | null =>
  seg.from <= Number(row.first_step) && seg.to >= Number(row.max_step) ? Number(row.points) : null;

/**
 * The points of a metric's segments when each holds its whole series, from the series rows
 * (no query); null when one is cut by the step range or a fork step.
 */
export function wholeSegmentsPoints(metric: LineageMetric, segments: readonly Segment[]): number | null {
  let n = 0;
  for (const seg of segments) {
    const row = rowOf(metric, seg);
    const whole = row ? wholePoints(seg, row) : 0;
    if (whole === null) return null;
    n += whole;
  }
  return n;
}

/** The points of one series in [seg.from, seg.to], from the chunk index and the (at most two) chunks cut. */
async function cutPoints(db: SqlDb, seg: Segment): Promise<number> {
  const range = overlapping(seg.seriesId, seg.from, seg.to);
  const chunks = await db.allArrays(
    `SELECT first_step, first_tie, last_step, points FROM metric_chunks WHERE ${range.where}`,
    range.params,
  );
  let n = 0;
  for (const [first, tie, last, points] of chunks) {
    const [from, to] = [Number(first), Number(last)];
    if (to < seg.from || from > seg.to) continue;
    if (from >= seg.from && to <= seg.to) {
      n += Number(points);
      continue;
    }
    const cut = await readChunk(db, seg.seriesId, { step: from, tie: Number(tie) });
    if (!cut) continue;
    const steps = viewChunk(cut.data).steps;
    n += lowerBound(steps, seg.to + 1) - lowerBound(steps, seg.from);
  }
  return n;
}
