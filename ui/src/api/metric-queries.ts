/**
 * The charts' data: a run's project and start (run details), the metric names of runs
 * (`GET /api/runs/metric-names`, which sees a fork's inherited metrics too) and sampled
 * metric series: one metric of a chart's finished runs in one request (`GET /api/runs/series`),
 * read once, and of its live runs in another, polled for their tails (live-series-queries.ts).
 */
import {
  keepPreviousData,
  queryOptions,
  useQueries,
  useQuery,
  type QueryClient,
  type QueryKey,
  type UseQueryResult,
} from '@tanstack/react-query';
import type { MetricNames } from '@server/api/schemas/metrics';
import { apiGet } from './client';
import { heldAnswers, heldLive, liveSeriesQuery, readSeries, type SeriesMap } from './live-series-queries';
import { fromColumns } from './series-merge';
import { runDetailsQuery } from './run-queries';

/** How often a live run's names and points are asked again. */
export const LIVE_CHARTS_MS = 3_000;

/** The most points the metrics endpoint samples a series to (docs/api.md §4.5: `limit` 1..10000). */
export const MAX_SERIES_LIMIT = 10_000;

/** One run's points of one metric, ordered by step, as columns. */
export interface MetricSeries {
  steps: number[];
  /** Epoch milliseconds. */
  times: number[];
  /** Null for a non-finite value (see flags). */
  values: (number | null)[];
  /** "NaN", "Infinity" or "-Infinity" where the value is null; undefined for finite points. */
  flags: (string | undefined)[];
  /** Points added by live tail fetches since the last full fetch. */
  appended: number;
  /**
   * The series' points in the asked step range before sampling (the server's `total`, kept up
   * to date by tail fetches): more than `steps.length` when the points held are a sample.
   */
  total: number;
}

/** What to ask for one run's series of one metric. */
export interface SeriesRequest {
  runId: number;
  logName: string;
  /** Points per series the server samples to (shape-preserving: bucket minima and maxima). */
  limit: number;
  stepMin?: number;
  stepMax?: number;
  /** The run is live: later fetches ask only for the tail. */
  live: boolean;
  /** Poll now (live and on screen). */
  poll: boolean;
  enabled: boolean;
}

/**
 * `GET /api/runs/metric-names`: the distinct metric names (sorted) of a project, or of the
 * given runs in it (a fork's inherited names too), at most `limit`; a poll asks at `priority`
 * 'low' (a person's click goes first).
 */
export const metricNamesQuery = (
  projectName: string,
  runIds: readonly number[] | undefined,
  limit: number,
  priority?: RequestPriority,
) =>
  queryOptions({
    queryKey: ['metric-names', projectName, runIds ?? [], limit],
    queryFn: ({ signal }) =>
      apiGet<MetricNames>('/api/runs/metric-names', { projectName, runIds, limit }, signal, priority).then(
        (answer) => answer.metricNames,
      ),
  });

/** Run details for the charts: project name (for metric names) and creation time (relative x). */
export function useChartRunDetails(runIds: readonly number[]) {
  return useQueries({
    queries: runIds.map((runId) => ({ ...runDetailsQuery(runId), staleTime: 30_000 })),
  });
}

/** What useMetricNames asks for: metricNamesQuery's inputs, and when and how often. */
export interface MetricNamesRequest {
  projectName: string;
  /** The runs whose names (their lineages' too) are asked for; undefined: the whole project's. */
  runIds?: readonly number[];
  limit: number;
  /** Default true. */
  enabled?: boolean;
  /** A run is RUNNING: asked again every few seconds (it may start logging a metric). */
  live?: boolean;
  /** How long an answer is fresh when not live (default: the client's). */
  staleTime?: number;
}

/** `GET /api/runs/metric-names` (metricNamesQuery) as a page uses it: the one hook for metric names. */
export function useMetricNames(r: MetricNamesRequest) {
  return useQuery({
    ...metricNamesQuery(r.projectName, r.runIds, r.limit, r.live ? 'low' : undefined),
    enabled: r.enabled !== false,
    refetchInterval: r.live ? LIVE_CHARTS_MS : false,
    refetchIntervalInBackground: false,
    ...(r.live ? { staleTime: 0 } : r.staleTime !== undefined ? { staleTime: r.staleTime } : {}),
  });
}

/**
 * The metric names request of charts of `runs` in `project` (undefined: not known yet), the
 * one useHasSystemMetrics makes too; `enabled` false asks nothing.
 */
export function chartNamesRequest(
  project: string | undefined,
  runs: readonly { runId: number; live?: boolean }[],
  enabled: boolean,
): MetricNamesRequest {
  return {
    projectName: project ?? '',
    runIds: runs.map((r) => r.runId),
    limit: MAX_SERIES_LIMIT,
    enabled: enabled && project !== undefined && runs.length > 0,
    live: runs.some((r) => r.live === true),
    staleTime: 30_000,
  };
}

/** The most runs one `GET /api/runs/series` request names (docs/api.md §4.10). */
export const MAX_BATCH_RUNS = 100;

/** What to ask for one metric of several runs: the same limit and step range for each. */
export interface BatchRequest {
  /** Ascending, so the order the runs are shown in does not change the key. */
  runIds: readonly number[];
  logName: string;
  limit: number;
  stepMin?: number;
  stepMax?: number;
}

const BATCH_KEY = 'metric-series-batch';

/** Batch answers older than this are not reused for another run list (the batch's freshness). */
const FINISHED_FRESH_MS = 5 * 60_000;

/**
 * The series of `b.runIds` (finished runs: their series no longer change): each one another
 * run list's batch holds (fresher than FINISHED_FRESH_MS, and not held by a live query, whose
 * run may have logged since) is taken from it, the rest come in one `GET /api/runs/series`.
 * A run that finishes, a filter or a re-sort thus reads only the runs not read before.
 */
async function fetchFinished(client: QueryClient, key: QueryKey, b: BatchRequest, signal: AbortSignal) {
  const series: SeriesMap = new Map();
  const missing: number[] = [];
  const live = heldLive(client, b.logName);
  const answers = heldAnswers(client, BATCH_KEY, b, key, FINISHED_FRESH_MS);
  for (const runId of b.runIds) {
    const held = live.has(runId) ? undefined : answers.find((m) => m.has(runId))?.get(runId);
    if (held) series.set(runId, held);
    else missing.push(runId);
  }
  if (missing.length > 0) {
    for (const s of (await readSeries(b, missing, b.stepMin, signal)).series) series.set(s.runId, fromColumns(s));
  }
  return series;
}

/**
 * One metric of several finished runs (ascending ids, at most MAX_BATCH_RUNS), each run's
 * series sampled to `b.limit` points, by run id (fetchFinished: read once, never polled).
 */
export const seriesBatchQuery = (b: BatchRequest) =>
  queryOptions({
    queryKey: [BATCH_KEY, b.runIds, b.logName, b.limit, b.stepMin ?? null, b.stepMax ?? null],
    queryFn: ({ signal, client, queryKey }) => fetchFinished(client, queryKey, b, signal),
    staleTime: FINISHED_FRESH_MS,
    gcTime: 5 * 60_000,
    structuralSharing: false,
  });

/** One request's series as a chart reads it, whichever query holds it. */
export interface SeriesState {
  data: MetricSeries | undefined;
  /** No series to draw yet and one is on its way. */
  loading: boolean;
  /** What is held is an earlier key's (another zoom window or run list). */
  isPlaceholderData: boolean;
  isError: boolean;
  error: Error | null;
  /** Asks again; the runs of one batch share it. */
  refetch: () => unknown;
}

/** Groups the live (or the finished) requests by metric, at most MAX_BATCH_RUNS runs a batch. */
function batchesOf(requests: readonly SeriesRequest[], live: boolean): BatchRequest[] {
  const byName = new Map<string, SeriesRequest[]>();
  for (const r of requests) {
    if (r.live !== live) continue;
    const list = byName.get(r.logName) ?? [];
    list.push(r);
    byName.set(r.logName, list);
  }
  const batches: BatchRequest[] = [];
  for (const [logName, list] of byName) {
    const runIds = [...new Set(list.map((r) => r.runId))].sort((a, b) => a - b);
    const { limit, stepMin, stepMax } = list[0]!;
    for (let i = 0; i < runIds.length; i += MAX_BATCH_RUNS) {
      batches.push({ runIds: runIds.slice(i, i + MAX_BATCH_RUNS), logName, limit, stepMin, stepMax });
    }
  }
  return batches;
}

/** The state of one run's series in the batch query that holds it. */
function stateOf(r: SeriesRequest, batches: readonly BatchRequest[], results: readonly BatchResult[]): SeriesState {
  const at = batches.findIndex((b) => b.logName === r.logName && b.runIds.includes(r.runId));
  const q = results[at]!;
  const data = q.data?.get(r.runId);
  const fetching = q.fetchStatus !== 'idle';
  return {
    data,
    // A run shown again waits for its series while the others stay drawn (placeholder batch).
    loading: fetching && (q.isPending || (q.isPlaceholderData && data === undefined)),
    isPlaceholderData: q.isPlaceholderData,
    isError: q.isError,
    error: q.error,
    refetch: q.refetch,
  };
}

type BatchResult = UseQueryResult<SeriesMap>;

/**
 * The series of several runs for one chart, one state per request in order: a metric's
 * finished runs come in one batch request, read once; its live runs in another, polled every
 * few seconds while the chart is near the viewport (`poll`) and the tab is shown, each poll
 * asking only for their tails (live-series-queries.ts). Requests of one chart share limit,
 * step range, `poll` and `enabled`.
 */
export function useMetricSeriesList(requests: readonly SeriesRequest[]): SeriesState[] {
  const enabled = requests.some((r) => r.enabled);
  const poll = enabled && requests.some((r) => r.poll);
  const batches = batchesOf(requests, false);
  const liveBatches = batchesOf(requests, true);
  // A new zoom window or run list keeps what is drawn until its own points arrive.
  const batchResults = useQueries({
    queries: batches.map((b) => ({ ...seriesBatchQuery(b), enabled, placeholderData: keepPreviousData })),
  });
  const liveResults = useQueries({
    queries: liveBatches.map((b) => ({
      ...liveSeriesQuery(b),
      enabled,
      refetchInterval: poll ? LIVE_CHARTS_MS : false,
      refetchIntervalInBackground: false,
      placeholderData: keepPreviousData,
    })),
  });
  return requests.map((r) => (r.live ? stateOf(r, liveBatches, liveResults) : stateOf(r, batches, batchResults)));
}
