/**
 * Metric reads through a fork lineage: points, sampled queries, summaries, highest step.
 */
import { samplePoints } from '../../../domain/sampling.js';
import type { LineageLink, MetricPoint, SeriesSummary } from '../../../domain/types.js';
import { resultTooLarge } from '../../../errors.js';
import { TimeSlice } from '../../../time-slice.js';
import type { MetricQuery, SummaryQuery } from '../../series-store.js';
import type { SqlDb } from '../db.js';
import { collectPoints, effectivePages } from './effective-points.js';
import { wholeSegmentsPoints } from './metric-count.js';
import {
  lineageMetricPages,
  lineageMetrics,
  queriedMetrics,
  visibleBounds,
  type LineageMetric,
} from './lineage-series.js';
import { clampStep, rowState, STEP_BOUND, stateSummary, toMetricPoint } from './series-row.js';
import { SummaryAccumulator } from './summary-accumulator.js';
import { sampleSegments, segmentsOf } from '../chunks/chunk-sample.js';
import { segmentsState } from '../chunks/segment-state.js';
import { CHUNK_COLUMNS, rowPoints, type ChunkDataRow } from '../chunks/chunk-rows.js';
import { lowerBound } from '../chunks/chunk-codec.js';

/** Returns the effective points of one metric in [stepMin, stepMax], ascending by step. */
export async function readPoints(
  db: SqlDb,
  lineage: readonly LineageLink[],
  logName: string,
  stepMin: number,
  stepMax: number,
): Promise<MetricPoint[]> {
  const [metric] = await lineageMetrics(db, lineage, { logNames: [logName] });
  if (!metric) return [];
  const points = await collectPoints(db, metric.sources, clampStep(stepMin), clampStep(stepMax));
  return points.map(toMetricPoint);
}

/**
 * Yields, per metric with effective points in [stepMin, stepMax] (sorted by logName, code
 * point order), at most `limit` of them by shape-preserving sampling, ascending by step.
 * Metrics without points in the range are left out. Yields to the event loop between series
 * (TimeSlice). Throws BAD_REQUEST for a bad limit. Unbounded: countMetricPoints (metric-count.ts)
 * tells the caller beforehand how many points it will answer at most.
 */
export async function* metricSeries(
  db: SqlDb,
  lineage: readonly LineageLink[],
  q: MetricQuery,
): AsyncGenerator<{ logName: string; points: MetricPoint[] }> {
  const stepMin = clampStep(q.stepMin);
  const stepMax = clampStep(q.stepMax);
  for await (const metric of queriedMetrics(db, lineage, q)) {
    const segments = segmentsOf(metric, stepMin, stepMax);
    // A metric known to fit its limit (whole series, counted by their rows) is read, not sampled.
    const whole = segments && wholeSegmentsPoints(metric, segments);
    const fits = whole !== null && whole <= q.limit;
    const sampled = segments && !fits ? await sampleSegments(db, segments, q.limit) : null;
    const points = sampled ?? samplePoints(await collectPoints(db, metric.sources, stepMin, stepMax), q.limit);
    if (points.length === 0) continue;
    yield { logName: metric.logName, points: points.map(toMetricPoint) };
  }
}

/** Returns everything metricSeries yields, in its order; throws what it throws. */
export async function queryMetrics(
  db: SqlDb,
  lineage: readonly LineageLink[],
  q: MetricQuery,
): Promise<{ logName: string; points: MetricPoint[] }[]> {
  const out: { logName: string; points: MetricPoint[] }[] = [];
  for await (const series of metricSeries(db, lineage, q)) out.push(series);
  return out;
}

/** True when one series is visible and all of its points are: its stored row is exact. */
function storedIsExact(metric: LineageMetric): boolean {
  const [only] = metric.sources;
  if (!only || metric.sources.length !== 1) return false;
  return only.row.max_step !== null && Number(only.row.max_step) <= only.maxStep;
}

/**
 * Returns the effective summaries of a lineage's metrics (optionally only the named ones, or
 * one logGroup), sorted by logName (code point order). Unforked series come from their stored
 * rows; the others are computed from their effective points in O(page) memory. Yields to the
 * event loop between series. Throws RESULT_TOO_LARGE when more than `q.maxMetrics` match.
 */
export async function summarize(
  db: SqlDb,
  lineage: readonly LineageLink[],
  logNames?: readonly string[],
  q: SummaryQuery = {},
): Promise<SeriesSummary[]> {
  const runId = lineage[0]?.runId;
  if (runId === undefined) return [];
  const filter = { ...(logNames ? { logNames } : {}), ...(q.logGroup !== undefined ? { logGroup: q.logGroup } : {}) };
  const out: SeriesSummary[] = [];
  const slice = new TimeSlice();
  for await (const metrics of lineageMetricPages(db, lineage, filter)) {
    if (q.maxMetrics !== undefined && out.length + metrics.length > q.maxMetrics) {
      throw resultTooLarge(
        `this read would answer more than ${q.maxMetrics} metrics; ask for one metric with logName or one group with logGroup`,
      );
    }
    for (const metric of metrics) {
      await slice.tick();
      out.push(await summaryOf(db, runId, metric, slice));
    }
  }
  return out;
}

/**
 * The effective summary of one metric: its stored row when exact; else, when its series'
 * visible parts do not overlap (a fork that logged only past its fork step), merged from
 * chunk statistics; else computed from its points.
 */
async function summaryOf(db: SqlDb, runId: number, metric: LineageMetric, slice: TimeSlice): Promise<SeriesSummary> {
  const only = metric.sources[0];
  if (only && storedIsExact(metric)) return stateSummary(runId, metric.logName, metric.logGroup, rowState(only.row));
  const segments = segmentsOf(metric, -STEP_BOUND, STEP_BOUND);
  if (segments) return stateSummary(runId, metric.logName, metric.logGroup, await segmentsState(db, segments));
  const acc = new SummaryAccumulator();
  for await (const page of effectivePages(db, metric.sources, -STEP_BOUND, STEP_BOUND)) {
    acc.pushAll(page);
    await slice.tick();
  }
  return stateSummary(runId, metric.logName, metric.logGroup, acc.finish());
}

interface MaxStepRow {
  id: number | string;
  run_id: number | string;
  first_step: number | string;
  max_step: number | string;
}

/** Returns the highest effective step over all metrics of the lineage, or null when none. */
export async function maxStep(db: SqlDb, lineage: readonly LineageLink[]): Promise<number | null> {
  let best: number | null = null;
  for (const link of visibleBounds(lineage)) {
    if (best !== null && link.maxStep <= best) continue;
    const rows = await db.all<MaxStepRow>(
      'SELECT id, run_id, first_step, max_step FROM series WHERE run_id = ? AND max_step IS NOT NULL AND first_step <= ?',
      [link.runId, link.maxStep],
    );
    for (const row of rows) {
      let step = Number(row.max_step);
      if (step > link.maxStep) {
        const found = await db.get<ChunkDataRow>(
          `SELECT ${CHUNK_COLUMNS} FROM metric_chunks WHERE series_id = ? AND first_step <= ? ORDER BY first_step DESC, first_tie DESC LIMIT 1`,
          [Number(row.id), link.maxStep],
        );
        if (found === undefined) continue;
        const steps = rowPoints(found).steps;
        step = steps[lowerBound(steps, link.maxStep + 1) - 1]!;
      }
      if (best === null || step > best) best = step;
    }
  }
  return best;
}
