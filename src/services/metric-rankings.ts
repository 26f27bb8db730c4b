import { type Aggregation, type Direction, type RankedRun, sortRanked } from '../domain/aggregation.js';
import type { RunHead, SeriesSummary } from '../domain/types.js';
import { resultTooLarge } from '../errors.js';
import { checkAnswerBytes, withConfigTexts } from './config-texts.js';
import { type Ctx, MAX_LINEAGE_DEPTH } from './context.js';
import { matchingRunIds, narrows, parseNarrowing, type RunNarrowing, type RunNarrowingParams } from './run-search.js';

export { AGGREGATIONS, DIRECTIONS } from '../domain/aggregation.js';

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

export interface LeaderboardQuery extends RunNarrowingParams {
  projectName: string;
  logName: string;
  aggregation: Aggregation;
  direction: Direction;
  limit: number;
  offset: number;
}

/** Forks beyond this many in one project are ranked in memory with every other run. */
const MAX_EXCLUDED_FORKS = 500;

/** Most runs a narrowed leaderboard ranks: when more match, it is refused (RESULT_TOO_LARGE). */
export const MAX_NARROWED_RUNS = 100_000;

/** A ranked run of a leaderboard page, its value and its config as stored JSON text (null when unset). */
export interface RankedRunRow {
  run: RunHead;
  value: number;
  config: string | null;
}

/**
 * Runs of a project ranked by an aggregate of one metric; ties by runId ascending; runs
 * without a finite value are not ranked. Unforked runs are ranked by the store from their
 * stored summaries; forks (whose series include their lineage's points) are ranked here and
 * merged in. With narrowing parameters (run search's: filter, search, tags, status), only
 * the runs that match are ranked (see rankMatching). Unknown project or metric → no runs.
 * The page's configs are read a batch at a time as the rows are taken; RESULT_TOO_LARGE,
 * before any is read, when they would pass config.readMaxBytes. Throws BAD_REQUEST for bad
 * narrowing parameters, as run search does.
 */
export async function leaderboard(
  ctx: Ctx,
  q: LeaderboardQuery,
): Promise<{ rows: AsyncIterable<RankedRunRow[]> | Iterable<RankedRunRow[]>; total: number }> {
  const { metadata } = ctx.deps;
  const narrowing = parseNarrowing(q);
  const projectId = await metadata.findProjectId(ctx.principal.orgId, q.projectName);
  if (projectId === undefined) return { rows: [], total: 0 };
  const { page, total } = narrows(narrowing)
    ? await rankMatching(ctx, projectId, q, narrowing)
    : await rankAll(ctx, projectId, q);
  const heads = await metadata.listRunHeads(
    ctx.principal.orgId,
    page.map((r) => r.runId),
  );
  const runs = new Map(heads.map((r) => [r.id, r]));
  const rows = page.flatMap((r) => {
    const run = runs.get(r.runId);
    return run ? [{ run, value: r.value }] : [];
  });
  checkAnswerBytes(
    ctx,
    rows,
    `these ${rows.length} runs`,
    'ask for fewer runs with a lower limit (and page with offset)',
  );
  return { rows: withConfigTexts(ctx, rows), total };
}

/** A page of every run of the project ranked, and how many are ranked. */
async function rankAll(
  ctx: Ctx,
  projectId: number,
  q: LeaderboardQuery,
): Promise<{ page: RankedRun[]; total: number }> {
  const { metadata, series } = ctx.deps;
  const forkIds = await metadata.listForkedRunIds(projectId);
  if (forkIds.length === 0) {
    const { rows, total } = await series.rankRuns({ ...q, projectId }, []);
    return { page: rows, total };
  }
  const forks = await rankForks(ctx, forkIds, q);
  const exclude = forkIds.length <= MAX_EXCLUDED_FORKS ? forkIds : [];
  // Without the exclusion list, forks may fill the head: ask for that many more rows.
  const headSize = q.offset + q.limit + (exclude.length > 0 ? 0 : forkIds.length);
  const head = await series.rankRuns({ ...q, projectId, limit: headSize, offset: 0 }, exclude);
  const forkSet = new Set(forkIds);
  const merged = sortRanked([...head.rows.filter((r) => !forkSet.has(r.runId)), ...forks], q.direction);
  const ownRanked = exclude.length > 0 ? head.total : head.total - (await countForksRanked(ctx, projectId, q, forkIds));
  return { page: merged.slice(q.offset, q.offset + q.limit), total: ownRanked + forks.length };
}

/** Forks with a finite value of the aggregate of their effective series (one lineage and summary read each). */
async function rankForks(ctx: Ctx, forkIds: readonly number[], q: LeaderboardQuery): Promise<RankedRun[]> {
  const forks: RankedRun[] = [];
  for (const runId of forkIds) {
    const s = await effectiveSummary(ctx, runId, q.logName);
    const value = s ? aggregate(s, q.aggregation) : null;
    if (value !== null && Number.isFinite(value)) forks.push({ runId, value });
  }
  return forks;
}

/**
 * A page of the project's runs that match the narrowing, ranked, and how many are ranked.
 * The matching ids come from run search (the metadata store), then the series store ranks
 * the unforked ones among them and forks are merged in by their effective summaries.
 * RESULT_TOO_LARGE when more than MAX_NARROWED_RUNS match; QUERY_TIMEOUT and OVERLOADED as
 * run search.
 */
async function rankMatching(
  ctx: Ctx,
  projectId: number,
  q: LeaderboardQuery,
  narrowing: RunNarrowing,
): Promise<{ page: RankedRun[]; total: number }> {
  const matching = await matchingRunIds(ctx, projectId, narrowing, MAX_NARROWED_RUNS);
  if (matching.total > MAX_NARROWED_RUNS) {
    throw resultTooLarge(
      `${matching.total.toLocaleString('en-US')} runs match the filters and a leaderboard ranks at most ` +
        `${MAX_NARROWED_RUNS.toLocaleString('en-US')}: narrow them with filter, search, tags or status`,
    );
  }
  if (matching.ids.length === 0) return { page: [], total: 0 };
  const projectForks = new Set(await ctx.deps.metadata.listForkedRunIds(projectId));
  const own = matching.ids.filter((id) => !projectForks.has(id));
  const forkIds = matching.ids.filter((id) => projectForks.has(id));
  const { logName, aggregation, direction, limit, offset } = q;
  const rank = { projectId, logName, aggregation, direction, runIds: own };
  if (forkIds.length === 0) {
    const { rows, total } = await ctx.deps.series.rankRuns({ ...rank, limit, offset }, []);
    return { page: rows, total };
  }
  const forks = await rankForks(ctx, forkIds, q);
  const head =
    own.length === 0
      ? { rows: [], total: 0 }
      : await ctx.deps.series.rankRuns({ ...rank, limit: Math.min(offset + limit, own.length), offset: 0 }, []);
  const merged = sortRanked([...head.rows, ...forks], direction);
  return { page: merged.slice(offset, offset + limit), total: head.total + forks.length };
}

/** How many forks have a finite value in their own stored summaries (counted by the store's total). */
async function countForksRanked(
  ctx: Ctx,
  projectId: number,
  q: LeaderboardQuery,
  forkIds: readonly number[],
): Promise<number> {
  const forks = new Set(forkIds);
  const own = await ctx.deps.series.projectSummaries(projectId, q.logName);
  return own.filter((s) => forks.has(s.runId) && s.count > 0 && Number.isFinite(aggregate(s, q.aggregation) ?? NaN))
    .length;
}

/** A compared run, its effective summary of the metric (undefined without a point of it) and its config text. */
export interface ComparedRun {
  run: RunHead;
  summary: SeriesSummary | undefined;
  config: string | null;
}

/**
 * Runs of a project (in request order; unknown, foreign or other-project ids omitted), each
 * with its effective summary of the metric, their configs read a batch at a time as they are
 * taken. RESULT_TOO_LARGE, before any config is read, when they would pass config.readMaxBytes.
 */
export async function compareRuns(
  ctx: Ctx,
  projectName: string,
  logName: string,
  runIds: readonly number[],
): Promise<{ runIds: number[]; rows: AsyncIterable<ComparedRun[]> }> {
  const runs = (await ctx.deps.metadata.listRunHeads(ctx.principal.orgId, runIds)).filter(
    (r) => r.projectName === projectName,
  );
  checkAnswerBytes(
    ctx,
    runs.map((run) => ({ run })),
    `these ${runs.length} runs`,
    'compare fewer runs (fewer runIds)',
  );
  const rows = await Promise.all(
    runs.map(async (run) => ({ run, summary: await effectiveSummary(ctx, run.id, logName) })),
  );
  return { runIds: runs.map((r) => r.id), rows: withConfigTexts(ctx, rows) };
}

/** Distinct metric names of a project (or of some of its runs, with their fork lineages), sorted. */
export async function metricNames(
  ctx: Ctx,
  q: { projectName: string; search?: string; runIds?: number[]; limit: number },
): Promise<string[]> {
  const { metadata, series } = ctx.deps;
  const projectId = await metadata.findProjectId(ctx.principal.orgId, q.projectName);
  if (projectId === undefined) return [];
  let scope: number[] | null = null;
  if (q.runIds) {
    const runs = (await metadata.listRunHeads(ctx.principal.orgId, q.runIds)).filter((r) => r.projectId === projectId);
    const ids = new Set<number>();
    for (const run of runs) {
      for (const link of await metadata.getLineage(ctx.principal.orgId, run.id, MAX_LINEAGE_DEPTH)) ids.add(link.runId);
    }
    scope = [...ids];
    if (scope.length === 0) return [];
  }
  return series.metricNames(projectId, scope, q.search || null, q.limit);
}
