import type { MetricPoint as StoredPoint, SeriesSummary } from '../../domain/types.js';
import { iso } from '../../domain/iso.js';
import { logGroupOf } from '../../domain/log-group.js';
import type { ComparedRun, RankedRunRow } from '../../services/metric-rankings.js';
import { runUrl } from '../../services/run-urls.js';
import type { MetricPoint, MetricStats, RunSeries } from '../schemas/metrics.js';
import type { CompareRow, CompareStats, LeaderboardRow } from '../schemas/rankings.js';
import type { MetricSummary } from '../schemas/runs.js';
import { RawJson, type WithRawJson } from '../sliced-json.js';

/** The number, or null when it is NaN or ±Infinity (an overflowed moment of huge values). */
export const finiteOrNull = (x: number | null): number | null => (x !== null && Number.isFinite(x) ? x : null);

/** Population standard deviation of a summary, or null without finite values. */
const summaryStddev = (s: SeriesSummary): number | null =>
  s.count > 0 ? Math.sqrt(Math.max(0, s.m2 / s.count)) : null;

/**
 * Each series' points as GET /api/runs/metrics answers them, one array per series, in the
 * series' order: one pass over each series' points, made as the series arrive.
 */
export async function* metricPointViews(
  series: AsyncIterable<{ logName: string; points: StoredPoint[] }>,
): AsyncIterable<MetricPoint[]> {
  for await (const s of series) {
    const logGroup = logGroupOf(s.logName);
    yield s.points.map((p) => {
      const view: MetricPoint = { logName: s.logName, logGroup, time: iso(p.time), step: p.step, value: p.value };
      if (p.flag !== null) view.valueFlag = p.flag;
      return view;
    });
  }
}

/** A metric's statistics as GET /api/runs/statistics answers them (non-finite moments as null). */
export const metricStatsView = (s: SeriesSummary): MetricStats => ({
  logName: s.logName,
  logGroup: s.logGroup,
  count: s.count,
  min: s.min,
  max: s.max,
  mean: s.count > 0 ? finiteOrNull(s.mean) : null,
  stddev: finiteOrNull(summaryStddev(s)),
  last: s.lastStep === null ? null : { step: s.lastStep, value: s.lastValue },
});

/** A metric's summary in a row of GET /api/runs/list (non-finite values as null). */
export const metricSummaryView = (s: SeriesSummary): MetricSummary => ({
  last: finiteOrNull(s.lastValue),
  min: finiteOrNull(s.min),
  max: finiteOrNull(s.max),
  mean: s.count > 0 ? finiteOrNull(s.mean) : null,
  count: s.count,
});

/** A ranked run as GET /api/runs/leaderboard answers it, config as stored; `rank` counts from 1 over all pages. */
export const leaderboardRowView = (
  { run, value, config }: RankedRunRow,
  rank: number,
  publicUrl: string,
  orgSlug: string,
): WithRawJson<LeaderboardRow> => ({
  rank,
  runId: run.id,
  runName: run.name,
  status: run.status,
  url: runUrl(publicUrl, orgSlug, run.projectName, run.id),
  value,
  tags: run.tags,
  createdAt: iso(run.createdAt),
  config: new RawJson(config ?? 'null'),
});

/** The metric's stats in a compared run: null when the run has no finite value of it. */
const compareStatsView = (s: SeriesSummary | undefined): CompareStats =>
  s && s.count > 0
    ? { count: s.count, min: s.min!, max: s.max!, mean: finiteOrNull(s.mean), final: s.lastValue! }
    : null;

/** A run with one metric's summary as GET /api/runs/compare answers it, config as stored. */
export const compareRowView = (
  { run, summary, config }: ComparedRun,
  publicUrl: string,
  orgSlug: string,
): WithRawJson<CompareRow> => ({
  runId: run.id,
  runName: run.name,
  url: runUrl(publicUrl, orgSlug, run.projectName, run.id),
  status: run.status,
  stats: compareStatsView(summary),
  config: new RawJson(config ?? 'null'),
});

/** A run's points of one metric as columns, as GET /api/runs/series answers them. */
export function runSeriesView(
  runId: number,
  logName: string,
  total: number,
  points: readonly StoredPoint[],
): RunSeries {
  const view: RunSeries = {
    runId,
    logGroup: logGroupOf(logName),
    total,
    sampled: points.length < total,
    steps: points.map((p) => p.step),
    times: points.map((p) => p.time),
    values: points.map((p) => p.value),
  };
  const flags: Record<string, string> = {};
  let flagged = false;
  points.forEach((p, i) => {
    if (p.flag !== null) {
      flags[i] = p.flag;
      flagged = true;
    }
  });
  if (flagged) view.flags = flags;
  return view;
}
