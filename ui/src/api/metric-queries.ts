/**
 * The charts' data: a run's project and start (run details), the metric names of runs
 * (`GET /api/runs/metric-names`, which sees a fork's inherited metrics too) and sampled
 * metric series (`GET /api/runs/metrics`). A live series fetches only its tail on each poll.
 */
import { keepPreviousData, queryOptions, useQueries, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { MetricNames, MetricPoint, MetricPoints } from '@server/api/schemas/metrics';
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

/**
 * Metric names of each run (its lineage's names for a fork), polled while live. A run whose
 * details are not loaded yet waits (`projectName` undefined).
 */
export function useRunMetricNames(runs: readonly { runId: number; projectName?: string; live: boolean }[]) {
  return useQueries({
    queries: runs.map((run) => ({
      ...metricNamesQuery(run.projectName ?? '', [run.runId], MAX_SERIES_LIMIT),
      enabled: run.projectName !== undefined,
      refetchInterval: run.live ? LIVE_CHARTS_MS : false,
      refetchIntervalInBackground: false,
      staleTime: run.live ? 0 : 30_000,
    })),
  });
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

const fetchPoints = (r: SeriesRequest, stepMin: number | undefined, signal: AbortSignal) =>
  apiGet<MetricPoints>(
    '/api/runs/metrics',
    { runId: r.runId, logName: r.logName, limit: r.limit, stepMin, stepMax: r.stepMax },
    signal,
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

/** The series of several runs for one chart; live ones poll their tail every few seconds. */
export function useMetricSeriesList(requests: readonly SeriesRequest[]) {
  return useQueries({
    queries: requests.map((r) => ({
      ...metricSeriesQuery(r),
      enabled: r.enabled,
      refetchInterval: r.live && r.poll && r.enabled ? LIVE_CHARTS_MS : false,
      refetchIntervalInBackground: false,
      // A new zoom window keeps the overview on screen until its own points arrive.
      placeholderData: keepPreviousData,
    })),
  });
}
