import { Type } from '@sinclair/typebox';
import type { Deps } from '../../services/context.js';
import { MAX_COMPARE_RUNS, parseRunIds, queryMetrics, runStatistics } from '../../services/metric-reads.js';
import {
  AGGREGATIONS,
  compareRuns,
  DIRECTIONS,
  leaderboard,
  MAX_NARROWED_RUNS,
  metricNames,
} from '../../services/metric-rankings.js';
import { comparisonUrl, runUrl } from '../../services/run-urls.js';
import type { App } from '../app-types.js';
import { ctxOf } from '../hooks/auth-hook.js';
import { QueryInt, RunId, RunNarrowingQuery, StringEnum } from '../schema-helpers.js';
import { MetricNames, MetricPoints, SeriesBatch, Statistics, type RunSeries } from '../schemas/metrics.js';
import { Compare, Leaderboard } from '../schemas/rankings.js';
import { itemMembers, jsonPieces, jsonStream, objectMembers, sendJsonBuffer, sendJsonStream } from '../sliced-json.js';
import {
  compareRowView,
  leaderboardRowView,
  metricPointViews,
  metricStatsView,
  runSeriesView,
} from '../views/metric-view.js';
import { querySeriesBatch, type RunSeries as SeriesRead } from '../../services/series-reads.js';

const Name = Type.String({ maxLength: 1024 });
const OptName = Type.Optional(Name);
/** The points per series and the step range of the point reads (metrics and series). */
const SeriesWindow = {
  limit: QueryInt(1, 10_000, 2000),
  stepMin: Type.Optional(QueryInt(0, Number.MAX_SAFE_INTEGER)),
  stepMax: Type.Optional(QueryInt(0, Number.MAX_SAFE_INTEGER)),
};
const LEADERBOARD_DESCRIPTION =
  'Runs of a project ranked by an aggregate of one metric, each with its whole `config`. One answer ' +
  'holds at most STEPWISE_READ_MAX_BYTES bytes (default 64 MB), measured from the stored configs before ' +
  'any is read: a larger one is refused with 400 `RESULT_TOO_LARGE`, whose error asks for a lower `limit` ' +
  '(paging with `offset`). Answers within the bound are streamed (chunked, without Content-Length). ' +
  '`filter`, `search`, `tags` and `status` narrow the ranking to the runs that GET /api/runs/list would ' +
  `list with them (same meaning and errors); when more than ${MAX_NARROWED_RUNS.toLocaleString('en-US')} runs ` +
  'match, it is refused with 400 ' +
  '`RESULT_TOO_LARGE`, whose error asks for narrower filters.';

const COMPARE_DESCRIPTION =
  "One metric's statistics in some runs of a project, each run with its whole `config`. One answer holds " +
  'at most STEPWISE_READ_MAX_BYTES bytes (default 64 MB), measured from the stored configs before any is ' +
  'read: a larger one is refused with 400 `RESULT_TOO_LARGE`, whose error asks for fewer `runIds`. ' +
  'Answers within the bound are streamed (chunked, without Content-Length).';

/** GET metrics, statistics, leaderboard, compare and metric-names. */
export function registerMetricRoutes(app: App, deps: Deps): void {
  const publicUrl = deps.config.publicUrl;

  app.get(
    '/api/runs/metrics',
    {
      config: { role: 'viewer' },
      schema: {
        description:
          "Effective points of a run's metrics, ordered by logName then step; `limit` (default 2000) caps the " +
          'points of each logName by shape-preserving sampling. A read may ask for at most ' +
          'STEPWISE_READ_MAX_POINTS points (default 2,000,000), counted before anything is sent as, per ' +
          'logName, the smaller of `limit` and its points in the step range: a read that asks for more is ' +
          'refused with 400 `RESULT_TOO_LARGE`, whose error asks for one metric (`logName`), one group ' +
          '(`logGroup`), a lower `limit` or a narrower `stepMin`/`stepMax`. Reads within the bound are ' +
          'answered in full, streamed (chunked, without Content-Length) as they are read. `total` counts the ' +
          'points in the step range before sampling, summed over the metrics answered.',
        querystring: Type.Object({
          runId: RunId,
          projectName: OptName,
          logName: OptName,
          logGroup: OptName,
          ...SeriesWindow,
        }),
        response: { 200: MetricPoints },
      },
    },
    async (request, reply) => {
      const { series, total } = await queryMetrics(ctxOf(deps, request), request.query);
      return sendJsonStream(reply, jsonStream<MetricPoints>({ metrics: itemMembers(metricPointViews(series)), total }));
    },
  );

  app.get(
    '/api/runs/series',
    {
      config: { role: 'viewer' },
      schema: {
        description:
          `One metric's effective points in up to ${MAX_COMPARE_RUNS} runs (each with its fork lineage), one ` +
          'series per run in the order of `runIds`, as columns (`steps`, `times` in epoch ms, `values`; a ' +
          'non-finite value is null with its kind in `flags` under its index). Each series is sampled to ' +
          '`limit` (default 2000) points as GET /api/runs/metrics samples it; `total` counts its points in the ' +
          'step range before sampling and `sampled` says it holds fewer. A run that is not in the organization ' +
          '(or not in `projectName`) is a 404. The answer holds at most STEPWISE_READ_MAX_POINTS points, ' +
          'counted before anything is sent as, per run, the smaller of `limit` and its points in the range: ' +
          'more is refused with 400 `RESULT_TOO_LARGE`. Streamed (chunked, without Content-Length).',
        querystring: Type.Object({
          runIds: Type.String({ minLength: 1, maxLength: 2000 }),
          logName: Type.String({ minLength: 1, maxLength: 1024 }),
          projectName: OptName,
          ...SeriesWindow,
        }),
        response: { 200: SeriesBatch },
      },
    },
    async (request, reply) => {
      const { logName } = request.query;
      const runIds = parseRunIds(request.query.runIds, MAX_COMPARE_RUNS);
      const reads = await querySeriesBatch(ctxOf(deps, request), { ...request.query, runIds });
      return sendJsonStream(
        reply,
        jsonStream<SeriesBatch>({ logName, series: itemMembers(seriesViews(reads, logName)) }),
      );
    },
  );

  app.get(
    '/api/runs/statistics',
    {
      config: { role: 'viewer' },
      schema: {
        description:
          'Per-metric statistics of a run, ordered by logName. One answer holds at most STEPWISE_READ_MAX_ITEMS ' +
          'metrics (default 100,000): more is refused with 400 `RESULT_TOO_LARGE`, whose error asks for ' +
          '`logName` or `logGroup`.',
        querystring: Type.Object({ runId: RunId, projectName: OptName, logName: OptName, logGroup: OptName }),
        response: { 200: Statistics },
      },
    },
    async (request, reply) => {
      const ctx = ctxOf(deps, request);
      const { run, summaries } = await runStatistics(ctx, request.query);
      const url = runUrl(publicUrl, ctx.principal.orgSlug, run.projectName, run.id);
      const metrics = itemMembers([summaries.map(metricStatsView)]);
      const answer = { runId: run.id, runName: run.name, projectName: run.projectName, url, metrics };
      return sendJsonBuffer(reply, await jsonPieces<Statistics>(answer));
    },
  );

  app.get(
    '/api/runs/leaderboard',
    {
      config: { role: 'viewer' },
      schema: {
        description: LEADERBOARD_DESCRIPTION,
        querystring: Type.Object({
          projectName: Type.String({ minLength: 1, maxLength: 256 }),
          logName: Type.String({ minLength: 1, maxLength: 1024 }),
          aggregation: Type.Optional(StringEnum(AGGREGATIONS)),
          direction: Type.Optional(StringEnum(DIRECTIONS)),
          limit: QueryInt(1, 100, 20),
          offset: QueryInt(0, Number.MAX_SAFE_INTEGER, 0),
          ...RunNarrowingQuery,
        }),
        response: { 200: Leaderboard },
      },
    },
    async (request, reply) => {
      const ctx = ctxOf(deps, request);
      const q = {
        ...request.query,
        aggregation: request.query.aggregation ?? 'LAST',
        direction: request.query.direction ?? 'ASC',
      };
      const { rows, total } = await leaderboard(ctx, q);
      const { projectName, logName, aggregation, direction } = q;
      const runs = objectMembers(rows, (row, i) =>
        leaderboardRowView(row, q.offset + i + 1, publicUrl, ctx.principal.orgSlug),
      );
      return sendJsonStream(
        reply,
        jsonStream<Leaderboard>({ projectName, logName, aggregation, direction, runs, total }),
      );
    },
  );

  app.get(
    '/api/runs/compare',
    {
      config: { role: 'viewer' },
      schema: {
        description: COMPARE_DESCRIPTION,
        querystring: Type.Object({
          runIds: Type.String({ minLength: 1, maxLength: 2000 }),
          projectName: Type.String({ minLength: 1, maxLength: 256 }),
          logName: Type.String({ minLength: 1, maxLength: 1024 }),
        }),
        response: { 200: Compare },
      },
    },
    async (request, reply) => {
      const ctx = ctxOf(deps, request);
      const { projectName, logName } = request.query;
      const asked = parseRunIds(request.query.runIds, MAX_COMPARE_RUNS);
      const { runIds, rows } = await compareRuns(ctx, projectName, logName, asked);
      const slug = ctx.principal.orgSlug;
      const url = comparisonUrl(publicUrl, slug, projectName, runIds);
      const runs = objectMembers(rows, (row) => compareRowView(row, publicUrl, slug));
      return sendJsonStream(reply, jsonStream<Compare>({ projectName, logName, comparisonUrl: url, runs }));
    },
  );

  app.get(
    '/api/runs/metric-names',
    {
      config: { role: 'viewer' },
      schema: {
        querystring: Type.Object({
          projectName: Type.String({ minLength: 1, maxLength: 256 }),
          search: Type.Optional(Type.String({ maxLength: 1024 })),
          runIds: Type.Optional(Type.String({ maxLength: 20_000 })),
          limit: QueryInt(1, 10_000, 500),
        }),
        response: { 200: MetricNames },
      },
    },
    async (request) => {
      const { projectName, search, limit } = request.query;
      const runIds = request.query.runIds ? parseRunIds(request.query.runIds, 1000) : undefined;
      const names = await metricNames(ctxOf(deps, request), { projectName, search, runIds, limit });
      return { projectName, metricNames: names };
    },
  );
}

/** Each run's series as GET /api/runs/series answers it, read one run at a time as the answer is sent. */
async function* seriesViews(reads: readonly SeriesRead[], logName: string): AsyncIterable<RunSeries[]> {
  for (const r of reads) yield [runSeriesView(r.runId, logName, r.total, await r.points())];
}
