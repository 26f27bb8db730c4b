/**
 * One metric of a chart's live (RUNNING) runs, polled through `GET /api/runs/series`
 * (docs/api.md §4.10): each poll asks in one request for the tails of runs close in steps,
 * from the lowest of their last steps, and merges them into what is held (series-merge.ts);
 * a run with nothing held yet, or grown by more than twice its limit since its last whole
 * read, is read whole (sampled afresh) in one more request.
 *
 * A sampled series takes tails too: the sample of the steps it held keeps each bucket's
 * lowest and highest point and its last one (the tail starts there), so the joined series is
 * real points that keep the shape, with the exact total; it is re-bucketed by the whole read
 * once it has grown by twice its limit.
 */
import { hashKey, queryOptions, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { SeriesBatch } from '@server/api/schemas/metrics';
import { apiGet } from './client';
import type { BatchRequest, MetricSeries } from './metric-queries';
import { fromColumns, mergeTail, tailGroups } from './series-merge';

/** Series by run id. */
export type SeriesMap = Map<number, MetricSeries>;

const LIVE_KEY = 'metric-series-live';

/** `GET /api/runs/series` of `runIds` from `stepMin`, at low priority (a person's click goes first). */
export const readSeries = (
  b: BatchRequest,
  runIds: readonly number[],
  stepMin: number | undefined,
  signal: AbortSignal,
) =>
  apiGet<SeriesBatch>(
    '/api/runs/series',
    { runIds, logName: b.logName, limit: b.limit, stepMin, stepMax: b.stepMax },
    signal,
    'low',
  );

/** Whether a cached key of `prefix` asks for the same metric, limit and step range as `b`. */
const sameRead = (key: QueryKey, prefix: string, b: BatchRequest) =>
  key[0] === prefix &&
  key[2] === b.logName &&
  key[3] === b.limit &&
  key[4] === (b.stepMin ?? null) &&
  key[5] === (b.stepMax ?? null);

/**
 * The answers (newest first) of the other queries of `prefix` with the same read as `b`
 * (another run list, e.g. before a run finished or the table was filtered), answered within
 * `maxAgeMs`; never the asking query's own (`ownKey`).
 */
export function heldAnswers(
  client: QueryClient,
  prefix: string,
  b: BatchRequest,
  ownKey: QueryKey,
  maxAgeMs = Infinity,
): SeriesMap[] {
  const own = hashKey(ownKey);
  const now = Date.now();
  return client
    .getQueryCache()
    .findAll({ queryKey: [prefix] })
    .filter(
      (q) =>
        q.queryHash !== own &&
        q.state.data !== undefined &&
        sameRead(q.queryKey, prefix, b) &&
        now - q.state.dataUpdatedAt < maxAgeMs,
    )
    .sort((x, y) => y.state.dataUpdatedAt - x.state.dataUpdatedAt)
    .map((q) => q.state.data as SeriesMap);
}

/** The runs whose `logName` some live query (any run list) holds: their last points may be newer than another's. */
export function heldLive(client: QueryClient, logName: string): Set<number> {
  const ids = new Set<number>();
  for (const q of client.getQueryCache().findAll({ queryKey: [LIVE_KEY] })) {
    if (q.queryKey[2] !== logName) continue;
    for (const id of (q.state.data as SeriesMap | undefined)?.keys() ?? []) ids.add(id);
  }
  return ids;
}

async function fetchLive(client: QueryClient, key: QueryKey, b: BatchRequest, signal: AbortSignal): Promise<SeriesMap> {
  const own = client.getQueryData<SeriesMap>(key);
  const others = heldAnswers(client, LIVE_KEY, b, key);
  const whole: number[] = [];
  const tails: { runId: number; last: number; prev: MetricSeries }[] = [];
  for (const runId of b.runIds) {
    const prev = own?.get(runId) ?? others.find((m) => m.has(runId))?.get(runId);
    const last = prev?.steps[prev.steps.length - 1];
    if (!prev || last === undefined || prev.appended > 2 * b.limit) whole.push(runId);
    else tails.push({ runId, last, prev });
  }
  // Runs within half a limit of steps share a read: a tail rarely needs sampling.
  const groups = tailGroups(tails, Math.floor(b.limit / 2)).map((g) => ({
    ...g,
    from: Math.max(g.from, b.stepMin ?? 0),
  }));
  const [wholeAnswer, ...tailAnswers] = await Promise.all([
    whole.length > 0 ? readSeries(b, whole, b.stepMin, signal) : undefined,
    ...groups.map((g) => readSeries(b, g.runIds, g.from, signal)),
  ]);
  const next: SeriesMap = new Map();
  for (const s of wholeAnswer?.series ?? []) next.set(s.runId, fromColumns(s));
  const again: number[] = [];
  groups.forEach((g, i) => {
    for (const s of tailAnswers[i]!.series) {
      const prev = tails.find((t) => t.runId === s.runId)!.prev;
      const merged = mergeTail(prev, fromColumns(s), g.from);
      if (merged) next.set(s.runId, merged);
      else again.push(s.runId);
    }
  });
  if (again.length > 0) {
    for (const s of (await readSeries(b, again, b.stepMin, signal)).series) next.set(s.runId, fromColumns(s));
  }
  // Nothing new: the same map, so nothing redraws.
  if (own && own.size === next.size && [...next].every(([id, s]) => own.get(id) === s)) return own;
  return next;
}

/**
 * Aborts the live charts' polls in flight (not a chart's first read): what a person just asked
 * for (a re-sort, a filter) takes their connections at once; each chart polls again at its
 * next interval.
 */
export const cancelChartPolls = (client: QueryClient): Promise<void> =>
  client.cancelQueries({
    queryKey: [LIVE_KEY],
    fetchStatus: 'fetching',
    predicate: (q) => q.state.data !== undefined,
  });

/**
 * One metric of several live runs (ascending ids, at most MAX_BATCH_RUNS), polled by the
 * caller: the first read is whole, later ones fetch tails (fetchLive). A new run list starts
 * from what another list held of its runs (a run that finished leaves the others' tails as
 * they were).
 */
export const liveSeriesQuery = (b: BatchRequest) =>
  queryOptions({
    queryKey: [LIVE_KEY, b.runIds, b.logName, b.limit, b.stepMin ?? null, b.stepMax ?? null],
    queryFn: ({ signal, client, queryKey }) => fetchLive(client, queryKey, b, signal),
    staleTime: 0,
    gcTime: 5 * 60_000,
    // Columns of thousands of numbers: a poll that changes nothing returns the same map.
    structuralSharing: false,
  });
