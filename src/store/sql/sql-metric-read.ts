/**
 * Metric reads through a fork lineage: points, sampled queries, summaries, highest step.
 */
import { samplePoints } from '../../domain/sampling.js';
import type { LineageLink } from '../../domain/types.js';
import type { MetricPoint, MetricQuery, SeriesSummary } from '../series-store.js';
import type { SqlDb } from './sql-db.js';
import { collectPoints, effectivePages } from './sql-effective-points.js';
import { lineageMetrics, visibleBounds, type LineageMetric } from './sql-lineage-series.js';
import { clampStep, rowState, STEP_BOUND, stateSummary, toMetricPoint } from './sql-series-row.js';
import { SummaryAccumulator } from './summary-accumulator.js';
import { sampleSegments, segmentsOf } from './sql-rollup-sample.js';

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
 * Returns, per metric with effective points in [stepMin, stepMax] (sorted by logName, code
 * point order), at most `limit` of them by shape-preserving sampling, ascending by step.
 * Metrics without points in the range are left out. Throws BAD_REQUEST for a bad limit.
 */
export async function queryMetrics(
  db: SqlDb,
  lineage: readonly LineageLink[],
  q: MetricQuery,
): Promise<{ logName: string; points: MetricPoint[] }[]> {
  const filter = {
    ...(q.logNames ? { logNames: q.logNames } : {}),
    ...(q.logGroup !== undefined ? { logGroup: q.logGroup } : {}),
  };
  const metrics = await lineageMetrics(db, lineage, filter);
  const out: { logName: string; points: MetricPoint[] }[] = [];
  const stepMin = clampStep(q.stepMin);
  const stepMax = clampStep(q.stepMax);
  for (const metric of metrics) {
    const segments = segmentsOf(metric, stepMin, stepMax);
    const sampled = segments && (await sampleSegments(db, segments, q.limit));
    const points = sampled ?? samplePoints(await collectPoints(db, metric.sources, stepMin, stepMax), q.limit);
    if (points.length === 0) continue;
    out.push({ logName: metric.logName, points: points.map(toMetricPoint) });
  }
  return out;
}

/** True when one series is visible and all of its points are: its stored row is exact. */
function storedIsExact(metric: LineageMetric): boolean {
  const [only] = metric.sources;
  if (!only || metric.sources.length !== 1) return false;
  return only.row.max_step !== null && Number(only.row.max_step) <= only.maxStep;
}

/**
 * Returns the effective summaries of a lineage's metrics (optionally only the named ones),
 * sorted by logName (code point order). Unforked series come from their stored rows; the
 * others are computed from their effective points in O(page) memory.
 */
export async function summarize(
  db: SqlDb,
  lineage: readonly LineageLink[],
  logNames?: readonly string[],
): Promise<SeriesSummary[]> {
  const runId = lineage[0]?.runId;
  if (runId === undefined) return [];
  const metrics = await lineageMetrics(db, lineage, logNames ? { logNames } : {});
  const out: SeriesSummary[] = [];
  for (const metric of metrics) {
    const only = metric.sources[0];
    if (only && storedIsExact(metric)) {
      out.push(stateSummary(runId, metric.logName, metric.logGroup, rowState(only.row)));
      continue;
    }
    const acc = new SummaryAccumulator();
    for await (const page of effectivePages(db, metric.sources, -STEP_BOUND, STEP_BOUND)) acc.pushAll(page);
    out.push(stateSummary(runId, metric.logName, metric.logGroup, acc.finish()));
  }
  return out;
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
        const found = await db.get<{ s: number | string | null }>(
          'SELECT MAX(step) AS s FROM metric_points WHERE series_id = ? AND step <= ?',
          [Number(row.id), link.maxStep],
        );
        if (found?.s === null || found?.s === undefined) continue;
        step = Number(found.s);
      }
      if (best === null || step > best) best = step;
    }
  }
  return best;
}
