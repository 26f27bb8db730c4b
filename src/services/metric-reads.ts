import type { MetricPoint, SeriesSummary } from '../store/series-store.js';
import { logGroupOf } from '../domain/log-group.js';
import { badRequest } from '../errors.js';
import { type Ctx, MAX_LINEAGE_DEPTH } from './context.js';
import { getProjectRun } from './run-lookup.js';
import { iso } from '../domain/iso.js';

/** Largest run list `compare` and `runIds` filters accept. */
export const MAX_COMPARE_RUNS = 100;

/** Parses a comma-separated list of run ids; throws BAD_REQUEST naming the parameter. */
export function parseRunIds(text: string, max: number, name = 'runIds'): number[] {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (parts.length === 0) throw badRequest(`${name} must list at least one run id`);
  if (parts.length > max) throw badRequest(`${name} may list at most ${max} run ids`);
  return [
    ...new Set(
      parts.map((p) => {
        if (!/^\d{1,15}$/.test(p))
          throw badRequest(`${name} must be comma-separated integers; got ${JSON.stringify(p)}`);
        return Number(p);
      }),
    ),
  ];
}

export interface MetricsQuery {
  runId: number;
  projectName?: string;
  logName?: string;
  logGroup?: string;
  limit: number;
  stepMin?: number;
  stepMax?: number;
}

/** A metric point as the metrics endpoint answers it. */
export interface MetricPointView {
  logName: string;
  logGroup: string;
  time: string;
  step: number;
  value: number | null;
  valueFlag?: string;
}

/**
 * Effective points of a run's metrics, sampled to `limit` per metric, as one array of views
 * per metric, ordered by logName then step. Rejects with NOT_FOUND or BAD_REQUEST before
 * anything is read; iterating throws RESULT_TOO_LARGE once past config.readMaxItems points.
 */
export async function queryMetrics(ctx: Ctx, q: MetricsQuery): Promise<AsyncIterable<MetricPointView[]>> {
  const run = await getProjectRun(ctx, q.runId, q.projectName);
  const stepMin = q.stepMin ?? 0;
  const stepMax = q.stepMax ?? Number.MAX_SAFE_INTEGER;
  if (stepMin > stepMax) throw badRequest('stepMin must not be greater than stepMax');
  const lineage = await ctx.deps.metadata.getLineage(ctx.principal.orgId, run.id, MAX_LINEAGE_DEPTH);
  const series = ctx.deps.series.metricSeries(lineage, {
    logNames: q.logName ? [q.logName] : undefined,
    logGroup: q.logGroup || undefined,
    stepMin,
    stepMax,
    limit: q.limit,
    maxPoints: ctx.deps.config.readMaxItems,
  });
  return pointViews(series);
}

async function* pointViews(series: AsyncIterable<{ logName: string; points: MetricPoint[] }>) {
  for await (const s of series) {
    const logGroup = logGroupOf(s.logName);
    yield s.points.map((p) => {
      const view: MetricPointView = { logName: s.logName, logGroup, time: iso(p.time), step: p.step, value: p.value };
      if (p.flag !== null) view.valueFlag = p.flag;
      return view;
    });
  }
}

/** The number, or null when it is NaN or ±Infinity (an overflowed moment of huge values). */
export const finiteOrNull = (x: number | null): number | null => (x !== null && Number.isFinite(x) ? x : null);

/** Population standard deviation of a summary, or null without finite values. */
export const summaryStddev = (s: SeriesSummary): number | null =>
  s.count > 0 ? Math.sqrt(Math.max(0, s.m2 / s.count)) : null;

/**
 * Per-metric statistics of a run (effective series), optionally filtered. Throws NOT_FOUND,
 * and RESULT_TOO_LARGE when more than config.readMaxItems metrics match.
 */
export async function runStatistics(
  ctx: Ctx,
  q: { runId: number; projectName?: string; logName?: string; logGroup?: string },
) {
  const run = await getProjectRun(ctx, q.runId, q.projectName);
  const lineage = await ctx.deps.metadata.getLineage(ctx.principal.orgId, run.id, MAX_LINEAGE_DEPTH);
  const summaries = await ctx.deps.series.summarize(lineage, q.logName ? [q.logName] : undefined, {
    logGroup: q.logGroup || undefined,
    maxMetrics: ctx.deps.config.readMaxItems,
  });
  const metrics = summaries.map((s) => ({
    logName: s.logName,
    logGroup: s.logGroup,
    count: s.count,
    min: s.min,
    max: s.max,
    mean: s.count > 0 ? finiteOrNull(s.mean) : null,
    stddev: finiteOrNull(summaryStddev(s)),
    last: s.lastStep === null ? null : { step: s.lastStep, value: s.lastValue },
  }));
  return { run, metrics };
}
