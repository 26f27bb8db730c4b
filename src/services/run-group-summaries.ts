/**
 * The metric summaries of GET /api/runs/groups (docs/api.md §13): per group and metric, the
 * n, mean, sample std, min and max of one value per run: its last finite value (`summary`),
 * or the min, max or mean of its finite values (`summaryMin`, `summaryMax`, `summaryMean`),
 * the numbers `metrics=` answers on the list; forks by their lineage.
 */
import type { MetricAgg } from '../domain/run-search.js';
import type { RunHead, SeriesSummary } from '../domain/types.js';
import { badRequest } from '../errors.js';
import type { Ctx } from './context.js';
import { runSummaries } from './run-search-metrics.js';
import { listOf } from './run-search.js';

/** One metric over a group's runs' values; std is the sample standard deviation. */
export interface GroupSummary {
  n: number;
  mean: number | null;
  std: number | null;
  min: number | null;
  max: number | null;
}

/** The answer field of each summary. */
export const SUMMARY_FIELDS = { last: 'summary', min: 'summaryMin', max: 'summaryMax', mean: 'summaryMean' } as const;
const AGGS = Object.keys(SUMMARY_FIELDS) as MetricAgg[];

/** The `summaries` parameter: comma-separated last, min, max, mean (default last), in that order. Throws BAD_REQUEST. */
export function parseSummaries(text: string | undefined): MetricAgg[] {
  const names = text === undefined ? ['last'] : listOf(text);
  if (names.length === 0) throw badRequest('summaries names none of last, min, max, mean');
  for (const name of names) {
    if (!(AGGS as string[]).includes(name)) {
      throw badRequest(
        `summaries: unknown summary ${JSON.stringify(name.slice(0, 80))}; ask for last, min, max or mean`,
      );
    }
  }
  return AGGS.filter((a) => names.includes(a));
}

/** n, mean, sample std, min and max of values (two passes). */
export function summaryOf(values: readonly number[]): GroupSummary {
  const n = values.length;
  if (n === 0) return { n, mean: null, std: null, min: null, max: null };
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    sum += v;
    min = Math.min(min, v);
    max = Math.max(max, v);
  }
  const mean = sum / n;
  let squares = 0;
  let residual = 0;
  for (const v of values) {
    squares += (v - mean) ** 2;
    residual += v - mean;
  }
  const std = n < 2 ? null : Math.sqrt(Math.max(0, squares - (residual * residual) / n) / (n - 1));
  return { n, mean: mean + residual / n, std, min, max };
}

/** A run's value of one summary of a metric; undefined when it has no finite one. */
function valueOf(s: SeriesSummary, agg: MetricAgg): number | undefined {
  const v = agg === 'last' ? s.lastValue : agg === 'min' ? s.min : agg === 'max' ? s.max : s.count > 0 ? s.mean : null;
  return v !== null && Number.isFinite(v) ? v : undefined;
}

/** Values by summary, then metric, then run id. */
export type RunValues = Map<MetricAgg, Map<string, Map<number, number>>>;

/**
 * Each wanted run's value of each summary of each metric: unforked runs from the stored
 * summaries (one read a metric), forks by lineage. Runs without a finite value are absent.
 */
export async function runValues(
  ctx: Ctx,
  projectId: number,
  runIds: readonly number[],
  forkIds: ReadonlySet<number>,
  names: readonly string[],
  aggs: readonly MetricAgg[],
): Promise<RunValues> {
  const out: RunValues = new Map(aggs.map((a) => [a, new Map(names.map((n) => [n, new Map<number, number>()]))]));
  const wanted = new Set(runIds);
  const keep = (s: SeriesSummary, runId: number) => {
    for (const agg of aggs) {
      const v = valueOf(s, agg);
      if (v !== undefined) out.get(agg)!.get(s.logName)?.set(runId, v);
    }
  };
  for (const name of names) {
    for (const s of await ctx.deps.series.projectSummaries(projectId, name)) {
      if (wanted.has(s.runId) && !forkIds.has(s.runId)) keep(s, s.runId);
    }
  }
  const forkRuns = [...forkIds].map((id) => ({ id, forkedFromRunId: id }) as Pick<RunHead, 'id' | 'forkedFromRunId'>);
  for (const [runId, summaries] of await runSummaries(ctx, forkRuns, names)) for (const s of summaries) keep(s, runId);
  return out;
}

/** The summary fields of one group: for each summary asked, metric → the summary over the group's runs. */
export function groupSummaryFields(
  values: RunValues,
  runIds: readonly number[],
  names: readonly string[],
): Partial<Record<(typeof SUMMARY_FIELDS)[MetricAgg], Record<string, GroupSummary>>> {
  return Object.fromEntries(
    [...values].map(([agg, byName]) => [
      SUMMARY_FIELDS[agg],
      Object.fromEntries(
        names.map((name) => {
          const byRun = byName.get(name)!;
          return [name, summaryOf(runIds.flatMap((id) => byRun.get(id) ?? []))];
        }),
      ),
    ]),
  );
}
