/**
 * The charts' data: a run's project and start (run details), the metric names of runs
 * (`GET /api/runs/metric-names`, which sees a fork's inherited metrics too) and sampled
 * metric series: one metric of a chart's finished runs in one request (`GET /api/runs/series`),
 * a live run's series on its own (`GET /api/runs/metrics`), fetching only its tail on each poll.
 */
import {
  keepPreviousData,
  queryOptions,
  useQueries,
  useQuery,
  type QueryClient,
  type QueryKey,
} from '@tanstack/react-query';
import type { MetricNames, MetricPoint, MetricPoints, RunSeries, SeriesBatch } from '@server/api/schemas/metrics';
import { apiGet } from './client';
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
 * given runs in it (a fork's inherited names too), at most `limit`.
 */
export const metricNamesQuery = (projectName: string, runIds: readonly number[] | undefined, limit: number) =>
  queryOptions({
    queryKey: ['metric-names', projectName, runIds ?? [], limit],
    queryFn: ({ signal }) =>
      apiGet<MetricNames>('/api/runs/metric-names', { projectName, runIds, limit }, signal).then(
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
    ...metricNamesQuery(r.projectName, r.runIds, r.limit),
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

/**
 * `GET /api/runs/metrics` for one run's series of one metric, sampled to `r.limit` points
 * (a live series fetches only its tail when asked again: fetchSeries).
 */
export const metricSeriesQuery = (r: SeriesRequest) =>
  queryOptions({
    queryKey: ['metric-series', r.runId, r.logName, r.limit, r.stepMin ?? null, r.stepMax ?? null],
    queryFn: ({ signal, client, queryKey }) => fetchSeries(client, queryKey, r, signal),
    staleTime: r.live ? 0 : 5 * 60_000,
    gcTime: 5 * 60_000,
    // Columns of thousands of numbers: a poll that changes nothing returns the same object.
    structuralSharing: false,
  });

function toSeries(points: readonly MetricPoint[], total: number, appended = 0): MetricSeries {
  const series: MetricSeries = { steps: [], times: [], values: [], flags: [], appended, total };
  for (const p of points) {
    series.steps.push(p.step);
    series.times.push(Date.parse(p.time));
    series.values.push(p.value);
    series.flags.push(p.value === null ? (p.valueFlag ?? 'NaN') : undefined);
  }
  return series;
}

// Chart data asks at low priority: a page of charts (live runs poll each) fills the browser's
// six connections, and the table's rows or a re-sort should not wait behind it.
const fetchPoints = (r: SeriesRequest, stepMin: number | undefined, signal: AbortSignal) =>
  apiGet<MetricPoints>(
    '/api/runs/metrics',
    { runId: r.runId, logName: r.logName, limit: r.limit, stepMin, stepMax: r.stepMax },
    signal,
    'low',
  );

/**
 * The series for a request. A first fetch (or a live series that has grown by more than
 * twice its limit through tail fetches) asks for the whole range, sampled; a later poll of a
 * live series asks only from the last step it holds (inclusive: that step may have been
 * re-logged, and `sys/` series log many samples at one step) and replaces from there. The
 * total follows: the tail's total replaces the points it replaces (exact while one point
 * per step is held at the last step, as for every series but a sampled `sys/` one).
 */
async function fetchSeries(
  client: QueryClient,
  key: QueryKey,
  r: SeriesRequest,
  signal: AbortSignal,
): Promise<MetricSeries> {
  const prev = client.getQueryData<MetricSeries>(key);
  const lastStep = prev?.steps[prev.steps.length - 1];
  if (!r.live || !prev || lastStep === undefined || prev.appended > 2 * r.limit) {
    const answer = await fetchPoints(r, r.stepMin, signal);
    return toSeries(answer.metrics, answer.total);
  }
  const from = Math.max(lastStep, r.stepMin ?? 0);
  const { metrics: tail, total: tailTotal } = await fetchPoints(r, from, signal);
  let keep = prev.steps.length;
  while (keep > 0 && prev.steps[keep - 1]! >= from) keep--;
  const total = keep === 0 ? tailTotal : prev.total - (prev.steps.length - keep) + tailTotal;
  if (tail.length === prev.steps.length - keep && tail.every((p, i) => p.step === prev.steps[keep + i])) {
    const same = tail.every((p, i) => Date.parse(p.time) === prev.times[keep + i] && p.value === prev.values[keep + i]);
    if (same && total === prev.total) return prev; // nothing new: keep the same object so nothing redraws
  }
  const added = toSeries(tail, tailTotal);
  return {
    steps: prev.steps.slice(0, keep).concat(added.steps),
    times: prev.times.slice(0, keep).concat(added.times),
    values: prev.values.slice(0, keep).concat(added.values),
    flags: prev.flags.slice(0, keep).concat(added.flags),
    appended: prev.appended + Math.max(0, tail.length - (prev.steps.length - keep)),
    total,
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

/** A `GET /api/runs/series` answer's series as the charts hold it. */
function fromColumns(s: RunSeries): MetricSeries {
  const flags = s.values.map((v, i) => (v === null ? (s.flags?.[i] ?? 'NaN') : undefined));
  return { steps: s.steps, times: s.times, values: s.values, flags, appended: 0, total: s.total };
}

/**
 * `GET /api/runs/series`: one metric of several runs in one request, each run's series sampled
 * to `b.limit` points, by run id.
 */
export const seriesBatchQuery = (b: BatchRequest) =>
  queryOptions({
    queryKey: ['metric-series-batch', b.runIds, b.logName, b.limit, b.stepMin ?? null, b.stepMax ?? null],
    queryFn: ({ signal }) =>
      apiGet<SeriesBatch>(
        '/api/runs/series',
        { runIds: b.runIds, logName: b.logName, limit: b.limit, stepMin: b.stepMin, stepMax: b.stepMax },
        signal,
        'low',
      ).then((answer) => new Map(answer.series.map((s) => [s.runId, fromColumns(s)]))),
    staleTime: 5 * 60_000,
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

/** Groups the finished runs' requests by metric (at most MAX_BATCH_RUNS runs a batch). */
function batchesOf(requests: readonly SeriesRequest[]): BatchRequest[] {
  const byName = new Map<string, SeriesRequest[]>();
  for (const r of requests) {
    if (r.live) continue;
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

/**
 * The series of several runs for one chart, one state per request in order: a metric's
 * finished runs come in one batch request; live runs each fetch their own and poll their tail
 * every few seconds. Requests of one chart share limit, step range and `enabled`.
 */
export function useMetricSeriesList(requests: readonly SeriesRequest[]): SeriesState[] {
  const enabled = requests.some((r) => r.enabled);
  const batches = batchesOf(requests);
  const liveOnes = requests.filter((r) => r.live);
  const batchResults = useQueries({
    queries: batches.map((b) => ({
      ...seriesBatchQuery(b),
      enabled,
      // A new zoom window or run list keeps what is drawn until its own points arrive.
      placeholderData: keepPreviousData,
    })),
  });
  const liveResults = useQueries({
    queries: liveOnes.map((r) => ({
      ...metricSeriesQuery(r),
      enabled: r.enabled,
      refetchInterval: r.poll && r.enabled ? LIVE_CHARTS_MS : false,
      refetchIntervalInBackground: false,
      placeholderData: keepPreviousData,
    })),
  });
  let nextLive = 0;
  return requests.map((r) => {
    if (r.live) {
      const q = liveResults[nextLive++]!;
      const state: SeriesState = {
        data: q.data,
        loading: q.isPending && q.fetchStatus !== 'idle',
        isPlaceholderData: q.isPlaceholderData,
        isError: q.isError,
        error: q.error,
        refetch: q.refetch,
      };
      return state;
    }
    const at = batches.findIndex((b) => b.logName === r.logName && b.runIds.includes(r.runId));
    const q = batchResults[at]!;
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
  });
}
