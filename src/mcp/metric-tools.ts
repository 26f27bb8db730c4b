/**
 * The MCP read tools about metrics (docs/api.md §17): names, history, statistics, compare and
 * leaderboard. Each calls the service and the view of its HTTP route and answers the route's
 * JSON, bounded.
 */
import { Type } from '@sinclair/typebox';
import { z } from 'zod';
import { type MetricPoint, MetricNames, MetricPoints, Statistics } from '../api/schemas/metrics.js';
import { Compare, Leaderboard } from '../api/schemas/rankings.js';
import { jsonStream, objectMembers } from '../api/sliced-json.js';
import { compareRowView, leaderboardRowView, metricPointViews, metricStatsView } from '../api/views/metric-view.js';
import { AGGREGATIONS, DIRECTIONS } from '../domain/aggregation.js';
import { configRows } from '../domain/config-diff.js';
import { MAX_COMPARE_RUNS, queryMetrics, runStatistics } from '../services/metric-reads.js';
import { compareRuns, leaderboard, metricNames } from '../services/metric-rankings.js';
import { comparisonUrl, runUrl } from '../services/run-urls.js';
import { boundedAnswer, fitItems, parsedAnswer } from './tool-kit.js';
import { arg, commaText, narrowingArgs, outputOf, stepRange } from './tool-schemas.js';
import { tool } from './tool-spec.js';

const runIdsArg = z.array(arg.runId).min(1);

export const getMetricNamesTool = tool({
  name: 'get_metric_names',
  description: 'The distinct metric names of a project (or of some of its runs), sorted; `search` is a substring.',
  access: 'read',
  input: {
    projectName: arg.project,
    search: z.string().max(1024).optional().describe('names containing this text'),
    runIds: runIdsArg.max(1000).optional().describe('only metrics of these runs'),
    limit: arg.limit(10_000, 500),
  },
  output: outputOf(MetricNames),
  async run(ctx, q, budget) {
    // One more than asked, to know whether more follow (the names have no count).
    const names = await metricNames(ctx, { ...q, limit: q.limit + 1 });
    const more = names.length > q.limit;
    const answer = { projectName: q.projectName, metricNames: names.slice(0, q.limit) };
    return boundedAnswer(answer, 'metricNames', { offset: 0, total: more ? null : names.length, more }, budget);
  },
});

export const getMetricHistoryTool = tool({
  name: 'get_metric_history',
  description:
    "One metric's points in a run, ordered by step, as GET /api/runs/metrics answers them: in a step range " +
    '(stepMin/stepMax) or `around` a step ± a window, at most `maxPoints` points chosen by shape-preserving ' +
    'sampling. `total` is how many points exist in the range; `sampled` says fewer were chosen; `truncated` ' +
    'says the answer was cut at its byte bound (ask for a narrower range or fewer points).',
  access: 'read',
  input: {
    runId: arg.runId,
    logName: arg.logName,
    projectName: arg.project.optional().describe('the run must be in this project (optional)'),
    stepMin: arg.step.optional().describe('first step (inclusive)'),
    stepMax: arg.step.optional().describe('last step (inclusive)'),
    around: arg.around,
    maxPoints: arg.limit(10_000, 2000).describe('the point budget (1 to 10,000; default 2,000)'),
  },
  output: outputOf(
    Type.Object({ runId: Type.Integer(), logName: Type.String(), points: MetricPoints.properties.metrics }),
    {
      sampled: Type.Boolean(),
      truncated: Type.Boolean(),
    },
  ),
  async run(ctx, a, budget) {
    const { stepMin, stepMax } = stepRange(a);
    const q = { runId: a.runId, projectName: a.projectName, logName: a.logName, limit: a.maxPoints, stepMin, stepMax };
    const { series, total } = await queryMetrics(ctx, q);
    const points: MetricPoint[] = [];
    for await (const batch of metricPointViews(series)) for (const p of batch) points.push(p);
    const head = {
      runId: a.runId,
      logName: a.logName,
      points: [],
      total,
      hasMore: true,
      sampled: true,
      truncated: true,
    };
    const fitted = fitItems(points, Buffer.byteLength(JSON.stringify(head)), budget);
    const sampled = points.length < total;
    return {
      runId: a.runId,
      logName: a.logName,
      points: fitted.items,
      sampled,
      truncated: fitted.cut,
      total,
      hasMore: fitted.cut,
    };
  },
});

export const getStatisticsTool = tool({
  name: 'get_statistics',
  description:
    'Per-metric statistics of a run (count, min, max, mean, stddev, first and last values), ordered by name, as ' +
    'GET /api/runs/statistics answers them; optionally of one metric or one group.',
  access: 'read',
  input: {
    runId: arg.runId,
    projectName: arg.project.optional(),
    logName: arg.logName.optional().describe('only this metric'),
    logGroup: z.string().max(1024).optional().describe('only metrics of this group (e.g. "train")'),
    limit: arg.limit(10_000, 500),
    offset: arg.offset,
  },
  output: outputOf(Statistics),
  async run(ctx, q, budget) {
    const { run, summaries } = await runStatistics(ctx, q);
    const url = runUrl(ctx.deps.config.publicUrl, ctx.principal.orgSlug, run.projectName, run.id);
    const metrics = summaries.slice(q.offset, q.offset + q.limit).map(metricStatsView);
    const answer = { runId: run.id, runName: run.name, projectName: run.projectName, url, metrics };
    return boundedAnswer(answer, 'metrics', { offset: q.offset, total: summaries.length }, budget);
  },
});

export const compareRunsTool = tool({
  name: 'compare_runs',
  description:
    "One metric's statistics in some runs of a project, each run with its config, as GET /api/runs/compare " +
    'answers them, plus `differingConfigKeys`: the dotted config keys whose values differ between the runs.',
  access: 'read',
  input: {
    projectName: arg.project,
    logName: arg.logName,
    runIds: runIdsArg.max(MAX_COMPARE_RUNS).describe(`the runs to compare (1 to ${MAX_COMPARE_RUNS})`),
  },
  output: outputOf(Compare, { differingConfigKeys: Type.Array(Type.String()) }),
  async run(ctx, { projectName, logName, runIds: asked }, budget) {
    const { runIds, rows } = await compareRuns(ctx, projectName, logName, [...new Set(asked)]);
    const { publicUrl } = ctx.deps.config;
    const slug = ctx.principal.orgSlug;
    const url = comparisonUrl(publicUrl, slug, projectName, runIds);
    const runs = objectMembers(rows, (row) => compareRowView(row, publicUrl, slug));
    const answer = await parsedAnswer<Compare>(jsonStream<Compare>({ projectName, logName, comparisonUrl: url, runs }));
    const differing = configRows(answer.runs.map((r) => r.config)).filter((row) => row.differs);
    const keys = fitItems(
      differing.map((row) => row.key),
      0,
      Math.floor(budget / 4),
    );
    const withKeys = { ...answer, differingConfigKeys: keys.items };
    return boundedAnswer(withKeys, 'runs', { offset: 0, total: answer.runs.length, more: keys.cut }, budget);
  },
});

export const getLeaderboardTool = tool({
  name: 'get_leaderboard',
  description:
    'Runs of a project ranked by an aggregate (LAST, MIN, MAX, MEAN ...) of one metric, as GET /api/runs/leaderboard ' +
    'answers them, optionally narrowed by the run filter language.',
  access: 'read',
  input: {
    projectName: arg.project,
    logName: arg.logName,
    aggregation: z.enum(AGGREGATIONS).default('LAST'),
    direction: z.enum(DIRECTIONS).default('ASC'),
    limit: arg.limit(100, 20),
    offset: arg.offset,
    ...narrowingArgs,
  },
  output: outputOf(Leaderboard),
  async run(ctx, a, budget) {
    const q = { ...a, tags: commaText(a.tags), status: commaText(a.status) };
    const { rows, total } = await leaderboard(ctx, q);
    const { publicUrl } = ctx.deps.config;
    const runs = objectMembers(rows, (row, i) =>
      leaderboardRowView(row, q.offset + i + 1, publicUrl, ctx.principal.orgSlug),
    );
    const { projectName, logName, aggregation, direction } = q;
    const answer = await parsedAnswer<Leaderboard>(
      jsonStream<Leaderboard>({ projectName, logName, aggregation, direction, runs, total }),
    );
    return boundedAnswer(answer, 'runs', { offset: q.offset, total }, budget);
  },
});
