import type { MetricPoint, RunHead, SeriesSummary } from '../domain/types.js';
import { badRequest, resultTooLarge } from '../errors.js';
import { type Ctx, MAX_LINEAGE_DEPTH } from './context.js';
import { getProjectRun } from './run-lookup.js';

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

/**
 * Effective points of a run's metrics, sampled to `limit` per metric, one series at a time,
 * ordered by logName then step, and `total`: their points in the step range before sampling
 * (summed over the metrics; more than the points answered when one was sampled). Rejects with
 * NOT_FOUND, BAD_REQUEST, or RESULT_TOO_LARGE when the read asks for more than
 * config.readMaxPoints points (per metric min(limit, its points in range), counted before any
 * point is read), so the caller may stream the answer.
 */
export async function queryMetrics(
  ctx: Ctx,
  q: MetricsQuery,
): Promise<{ series: AsyncIterable<{ logName: string; points: MetricPoint[] }>; total: number }> {
  const run = await getProjectRun(ctx, q.runId, q.projectName);
  const stepMin = q.stepMin ?? 0;
  const stepMax = q.stepMax ?? Number.MAX_SAFE_INTEGER;
  if (stepMin > stepMax) throw badRequest('stepMin must not be greater than stepMax');
  const lineage = await ctx.deps.metadata.getLineage(ctx.principal.orgId, run.id, MAX_LINEAGE_DEPTH);
  const read = {
    logNames: q.logName ? [q.logName] : undefined,
    logGroup: q.logGroup || undefined,
    stepMin,
    stepMax,
    limit: q.limit,
  };
  const maxPoints = ctx.deps.config.readMaxPoints;
  // Counted from the series rows and chunk index: the row of a whole series, at most two chunks cut.
  const { answered, total } = await ctx.deps.series.tallyMetricPoints(lineage, read, maxPoints);
  if (answered > maxPoints) {
    throw resultTooLarge(
      `this read would answer more than ${maxPoints} points (limit ${q.limit} applies to each metric); ask for ` +
        'one metric with logName or one group with logGroup, or lower limit, or narrow stepMin/stepMax',
    );
  }
  return { series: ctx.deps.series.metricSeries(lineage, read), total };
}

/**
 * The run and the summaries of its metrics (effective series, sorted by logName), optionally
 * filtered. Throws NOT_FOUND, and RESULT_TOO_LARGE when more than config.readMaxItems metrics match.
 */
export async function runStatistics(
  ctx: Ctx,
  q: { runId: number; projectName?: string; logName?: string; logGroup?: string },
): Promise<{ run: RunHead; summaries: SeriesSummary[] }> {
  const run = await getProjectRun(ctx, q.runId, q.projectName);
  const lineage = await ctx.deps.metadata.getLineage(ctx.principal.orgId, run.id, MAX_LINEAGE_DEPTH);
  const summaries = await ctx.deps.series.summarize(lineage, q.logName ? [q.logName] : undefined, {
    logGroup: q.logGroup || undefined,
    maxMetrics: ctx.deps.config.readMaxItems,
  });
  return { run, summaries };
}
