import type { Run } from '../domain/types.js';
import type { SeriesSummary } from '../store/series-store.js';
import { type Ctx, MAX_LINEAGE_DEPTH } from './context.js';

export const AGGREGATIONS = ['MIN', 'MAX', 'AVG', 'LAST', 'VARIANCE'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];
export const DIRECTIONS = ['ASC', 'DESC'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/** The value a summary ranks by, or null when the run has no finite value of the metric. */
export function aggregate(s: SeriesSummary, aggregation: Aggregation): number | null {
  if (s.count === 0) return null;
  switch (aggregation) {
    case 'MIN':
      return s.min;
    case 'MAX':
      return s.max;
    case 'AVG':
      return s.mean;
    case 'LAST':
      return s.lastValue;
    case 'VARIANCE':
      return Math.max(0, s.m2 / s.count);
  }
}

/** Effective summary of one metric for one run, following its fork lineage. */
async function effectiveSummary(ctx: Ctx, runId: number, logName: string): Promise<SeriesSummary | undefined> {
  const lineage = await ctx.deps.metadata.getLineage(ctx.principal.orgId, runId, MAX_LINEAGE_DEPTH);
  return (await ctx.deps.series.summarize(lineage, [logName]))[0];
}

export interface LeaderboardQuery {
  projectName: string;
  logName: string;
  aggregation: Aggregation;
  direction: Direction;
  limit: number;
  offset: number;
}

/**
 * Runs of a project ranked by an aggregate of one metric; ties by runId ascending; runs
 * without a finite value are not ranked. Unknown project or metric → no runs.
 */
export async function leaderboard(
  ctx: Ctx,
  q: LeaderboardQuery,
): Promise<{ rows: { run: Run; value: number }[]; total: number }> {
  const { metadata, series } = ctx.deps;
  const project = await metadata.findProject(ctx.principal.orgId, q.projectName);
  if (!project) return { rows: [], total: 0 };
  const byRun = new Map<number, SeriesSummary>();
  for (const s of await series.projectSummaries(project.id, q.logName)) byRun.set(s.runId, s);
  for (const runId of await metadata.listForkedRunIds(project.id)) {
    const s = await effectiveSummary(ctx, runId, q.logName);
    if (s) byRun.set(runId, s);
    else byRun.delete(runId);
  }
  const ranked: { runId: number; value: number }[] = [];
  for (const [runId, s] of byRun) {
    const value = aggregate(s, q.aggregation);
    if (value !== null && Number.isFinite(value)) ranked.push({ runId, value });
  }
  const sign = q.direction === 'ASC' ? 1 : -1;
  ranked.sort((a, b) => (a.value === b.value ? a.runId - b.runId : sign * (a.value - b.value)));
  const page = ranked.slice(q.offset, q.offset + q.limit);
  const runs = new Map(
    (
      await metadata.listRunsByIds(
        ctx.principal.orgId,
        page.map((r) => r.runId),
      )
    ).map((r) => [r.id, r]),
  );
  const rows = page.flatMap((r) => {
    const run = runs.get(r.runId);
    return run ? [{ run, value: r.value }] : [];
  });
  return { rows, total: ranked.length };
}

/** Runs of a project (in request order; unknown, foreign or other-project ids omitted) with the metric's stats. */
export async function compareRuns(ctx: Ctx, projectName: string, logName: string, runIds: readonly number[]) {
  const runs = (await ctx.deps.metadata.listRunsByIds(ctx.principal.orgId, runIds)).filter(
    (r) => r.projectName === projectName,
  );
  return Promise.all(
    runs.map(async (run) => {
      const s = await effectiveSummary(ctx, run.id, logName);
      const stats =
        s && s.count > 0 ? { count: s.count, min: s.min!, max: s.max!, mean: s.mean, final: s.lastValue! } : null;
      return { run, stats };
    }),
  );
}

/** Distinct metric names of a project (or of some of its runs, with their fork lineages), sorted. */
export async function metricNames(
  ctx: Ctx,
  q: { projectName: string; search?: string; runIds?: number[]; limit: number },
): Promise<string[]> {
  const { metadata, series } = ctx.deps;
  const project = await metadata.findProject(ctx.principal.orgId, q.projectName);
  if (!project) return [];
  let scope: number[] | null = null;
  if (q.runIds) {
    const runs = (await metadata.listRunsByIds(ctx.principal.orgId, q.runIds)).filter(
      (r) => r.projectId === project.id,
    );
    const ids = new Set<number>();
    for (const run of runs) {
      for (const link of await metadata.getLineage(ctx.principal.orgId, run.id, MAX_LINEAGE_DEPTH)) ids.add(link.runId);
    }
    scope = [...ids];
    if (scope.length === 0) return [];
  }
  return series.metricNames(project.id, scope, q.search || null, q.limit);
}
