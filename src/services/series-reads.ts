import type { LineageLink, MetricPoint } from '../domain/types.js';
import { badRequest, notFound, resultTooLarge } from '../errors.js';
import { type Ctx, MAX_LINEAGE_DEPTH } from './context.js';

export interface SeriesBatchQuery {
  runIds: readonly number[];
  logName: string;
  projectName?: string;
  limit: number;
  stepMin?: number;
  stepMax?: number;
}

/** One run's series of the metric: its points in the range before sampling, and the read of the sample. */
export interface RunSeries {
  runId: number;
  total: number;
  points: () => Promise<MetricPoint[]>;
}

/**
 * Points of a batch read held at once before the answer reaches them: the runs whose answers
 * fit together are all read at once (a chart's 12 runs of 800 points, or 100 of 300), the
 * rest as the answer reaches each. On the embedded store a chart's reads then queue on the
 * bucket threads ahead of the next request's, so the answers of a page's charts finish one
 * after another, each drawn while the next is read, rather than all together at the end.
 */
const READ_AHEAD_POINTS = 100_000;

/**
 * One metric of several runs (each with its fork lineage), in the order of `runIds`, sampled
 * to `limit` points each exactly as queryMetrics samples one run's series. Every run must be
 * in the caller's organization (and in `projectName` when given), else NOT_FOUND. Rejects
 * with RESULT_TOO_LARGE when the answer would hold more than config.readMaxPoints points (per
 * run min(limit, its points in range), summed before any point is read), so the caller may
 * stream the answer; a run without the metric answers no points and total 0.
 */
export async function querySeriesBatch(ctx: Ctx, q: SeriesBatchQuery): Promise<RunSeries[]> {
  const stepMin = q.stepMin ?? 0;
  const stepMax = q.stepMax ?? Number.MAX_SAFE_INTEGER;
  if (stepMin > stepMax) throw badRequest('stepMin must not be greater than stepMax');
  const { metadata, series, config } = ctx.deps;
  const heads = new Map((await metadata.listRunHeads(ctx.principal.orgId, q.runIds)).map((r) => [r.id, r]));
  for (const runId of q.runIds) {
    const run = heads.get(runId);
    if (!run) throw notFound(`run ${runId} not found`);
    if (q.projectName !== undefined && run.projectName !== q.projectName)
      throw notFound(`run ${runId} not found in project ${q.projectName}`);
  }
  const read = { logNames: [q.logName], stepMin, stepMax, limit: q.limit };
  const lineages: LineageLink[][] = [];
  const totals: number[] = [];
  const answered: number[] = [];
  let asked = 0;
  for (const runId of q.runIds) {
    const lineage = await metadata.getLineage(ctx.principal.orgId, runId, MAX_LINEAGE_DEPTH);
    lineages.push(lineage);
    const tally = await series.tallyMetricPoints(lineage, read, config.readMaxPoints - asked);
    totals.push(tally.total);
    answered.push(tally.answered);
    asked += tally.answered;
    if (asked > config.readMaxPoints) {
      throw resultTooLarge(
        `this read would answer more than ${config.readMaxPoints} points (limit ${q.limit} applies to each run); ` +
          'ask for fewer runIds, a lower limit, or a narrower stepMin/stepMax',
      );
    }
  }
  const pointsOf = async (i: number) => (await series.queryMetrics(lineages[i]!, read))[0]?.points ?? [];
  let ahead = 0;
  return q.runIds.map((runId, i) => {
    ahead += answered[i]!;
    const early = ahead <= READ_AHEAD_POINTS ? pointsOf(i) : null;
    // Awaited when the answer reaches the run; an answer that stops first leaves it unread.
    early?.catch(() => undefined);
    return { runId, total: totals[i]!, points: () => early ?? pointsOf(i) };
  });
}
