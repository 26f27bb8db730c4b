/**
 * One metric of each group of runs per step bucket (GET /api/runs/groups/metrics, docs/api.md
 * §13): each run's value in a bucket is the mean of its finite effective points there (the
 * series store sums them from chunk statistics, decoding only chunks that straddle a bucket
 * edge); per bucket, n, mean, sample std, stderr, min and max over the runs' values.
 */
import { parseGroupBy } from '../domain/group-by.js';
import { bucketSteps, type RunBucketSums, type StepBuckets } from '../domain/step-buckets.js';
import { resultTooLarge } from '../errors.js';
import type { RunLineage } from '../store/series-store.js';
import { type Ctx, MAX_LINEAGE_DEPTH } from './context.js';
import { type Grouped, groupMatchingRuns } from './run-groups.js';
import type { RunNarrowingParams } from './run-search.js';

/** Most runs one groups/metrics read aggregates. */
export const MAX_GROUP_METRIC_RUNS = 10_000;
/** Bytes a bucket takes in the answer at most, for the bound on its size. */
const POINT_BYTES = 200;

export interface GroupMetricsParams extends RunNarrowingParams {
  projectName: string;
  groupBy: string;
  logName: string;
  limit: number;
  stepMin?: number;
  stepMax?: number;
}

/** One bucket of a group. */
export interface GroupPoint {
  step: number;
  stepEnd: number;
  n: number;
  mean: number;
  std: number | null;
  stderr: number | null;
  min: number;
  max: number;
  nonFinite?: number;
}

/** A group's runs' values per bucket, folded run by run (Welford). */
class GroupBuckets {
  readonly n: Float64Array;
  readonly mean: Float64Array;
  readonly m2: Float64Array;
  readonly min: Float64Array;
  readonly max: Float64Array;
  readonly nonFinite: Float64Array;
  constructor(count: number) {
    this.n = new Float64Array(count);
    this.mean = new Float64Array(count);
    this.m2 = new Float64Array(count);
    this.min = new Float64Array(count);
    this.max = new Float64Array(count);
    this.nonFinite = new Float64Array(count);
  }

  /**
   * Folds one run's bucket sums in (its mean per bucket as RunBucketSums.mean gives it, read
   * here from the arrays: half the time of a call per bucket on 1,000 runs × 1,000 buckets).
   */
  add(sums: RunBucketSums): void {
    const { n: ns, mean, m2, min, max, nonFinite } = this;
    const { sum, comp, count } = sums;
    for (let i = 0; i < ns.length; i++) {
      nonFinite[i]! += sums.nonFinite[i]!;
      const c = count[i]!;
      if (!(c > 0)) continue;
      const x = (sum[i]! + comp[i]!) / c;
      const n = ++ns[i]!;
      const delta = x - mean[i]!;
      mean[i]! += delta / n;
      m2[i]! += delta * (x - mean[i]!);
      min[i] = n === 1 ? x : Math.min(min[i]!, x);
      max[i] = n === 1 ? x : Math.max(max[i]!, x);
    }
  }

  /** The buckets with at least one run's value, in step order (one literal per point: no spreads). */
  points(b: StepBuckets): GroupPoint[] {
    const out: GroupPoint[] = [];
    for (let i = 0; i < this.n.length; i++) {
      const n = this.n[i]!;
      if (n === 0) continue;
      const std = n < 2 ? null : Math.sqrt(Math.max(0, this.m2[i]!) / (n - 1));
      const { step, stepEnd } = bucketSteps(b, i);
      const point: GroupPoint = {
        step,
        stepEnd,
        n,
        mean: this.mean[i]!,
        std,
        stderr: std === null ? null : std / Math.sqrt(n),
        min: this.min[i]!,
        max: this.max[i]!,
      };
      if (this.nonFinite[i]! > 0) point.nonFinite = this.nonFinite[i]!;
      out.push(point);
    }
    return out;
  }
}

/** Each grouped run with its lineage (forks read through getLineage; others are their own). */
async function lineagesOf(ctx: Ctx, groups: readonly Grouped[]): Promise<RunLineage[]> {
  const out: RunLineage[] = [];
  for (const g of groups) {
    for (const runId of g.runIds) {
      const lineage = g.forkIds.has(runId)
        ? await ctx.deps.metadata.getLineage(ctx.principal.orgId, runId, MAX_LINEAGE_DEPTH)
        : [{ runId, maxStep: Infinity }];
      out.push({ runId, lineage });
    }
  }
  return out;
}

/**
 * Each group's buckets of one metric, groups in the order of groupRuns (an unknown project
 * has none). Throws BAD_REQUEST for a bad groupBy or narrowing; RESULT_TOO_LARGE when more
 * than MAX_GROUP_METRIC_RUNS runs match or the groups × `limit` buckets could pass
 * config.readMaxBytes (before any point is read); QUERY_TIMEOUT past config.queryTimeoutMs.
 */
export async function groupMetrics(ctx: Ctx, q: GroupMetricsParams) {
  const started = Date.now();
  const fields = parseGroupBy(q.groupBy);
  const head = { projectName: q.projectName, groupBy: fields.map((f) => f.name), logName: q.logName };
  const grouped = await groupMatchingRuns(ctx, q, fields, MAX_GROUP_METRIC_RUNS);
  if (!grouped) return { ...head, groups: [], total: 0 };
  const { groups } = grouped;
  const { readMaxBytes, queryTimeoutMs } = ctx.deps.config;
  if (groups.length * q.limit * POINT_BYTES > readMaxBytes) {
    throw resultTooLarge(
      `${groups.length} groups of up to ${q.limit} buckets could answer more than the ` +
        `${(readMaxBytes / 2 ** 20).toFixed(1)} MB one read may answer (STEPWISE_READ_MAX_BYTES); ` +
        'ask for fewer buckets with a lower limit, or fewer groups',
    );
  }
  const runs = await lineagesOf(ctx, groups);
  const read = await ctx.deps.series.bucketSums(runs, q.logName, {
    ...(q.stepMin !== undefined && { stepMin: q.stepMin }),
    ...(q.stepMax !== undefined && { stepMax: q.stepMax }),
    limit: q.limit,
    deadline: queryTimeoutMs > 0 ? started + queryTimeoutMs : 0,
    timeoutMs: queryTimeoutMs,
  });
  const answer = (points: (g: number) => GroupPoint[]) => ({
    ...head,
    groups: groups.map((g, i) => ({ key: g.key, runCount: g.runIds.length, points: points(i) })),
    total: groups.length,
  });
  if (!read) return answer(() => []);
  const groupOf = new Map<number, number>();
  groups.forEach((g, i) => g.runIds.forEach((id) => groupOf.set(id, i)));
  const acc = groups.map(() => new GroupBuckets(read.buckets.count));
  for await (const { runId, sums } of read.sums) acc[groupOf.get(runId)!]!.add(sums);
  return answer((i) => acc[i]!.points(read.buckets));
}
