import {
  infiniteQueryOptions,
  keepPreviousData,
  queryOptions,
  useInfiniteQuery,
  useQueries,
  useQueryClient,
} from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { Aggregation, Direction } from '@server/domain/aggregation';
import type { Leaderboard as LeaderboardAnswer } from '@server/api/schemas/rankings';
import type { RunList as RunListAnswer, RunRow } from '@server/api/schemas/runs';
import { apiGet } from './client';
import { cancelChartPolls } from './live-series-queries';

/** The parameters of `GET /api/runs/list` other than paging. */
export interface RunListParams {
  projectName: string;
  search?: string;
  tags?: readonly string[];
  status?: readonly string[];
  sort?: string;
  filter?: string;
  metrics?: readonly string[];
}

/** Rows per request: the API's largest page. */
export const RUN_PAGE_SIZE = 200;

const listPage = (params: RunListParams, page: number, signal: AbortSignal) =>
  apiGet<RunListAnswer>(
    '/api/runs/list',
    {
      projectName: params.projectName,
      search: params.search || undefined,
      tags: params.tags,
      status: params.status,
      sort: params.sort || undefined,
      filter: params.filter || undefined,
      metrics: params.metrics,
      limit: RUN_PAGE_SIZE,
      offset: page * RUN_PAGE_SIZE,
    },
    signal,
  );

/** One page (RUN_PAGE_SIZE rows) of `GET /api/runs/list`. */
export const runListPageQuery = (params: RunListParams, page: number) =>
  queryOptions({
    queryKey: ['runs-list', params, page],
    queryFn: ({ signal }) => listPage(params, page, signal),
  });

/** What the runs table knows: rows by index (missing while their page loads) and the total. */
export interface RunPages {
  rowAt: (index: number) => RunRow | undefined;
  /** The rows of the first page, once loaded (a sample for config keys and tags). */
  firstPage: RunRow[] | undefined;
  /** Every match; undefined until the first page answers. */
  total: number | undefined;
  /** The first page has not answered yet (for these parameters or any earlier ones). */
  isPending: boolean;
  /** Some page is being fetched (a scroll, a new sort or filter). */
  isFetching: boolean;
  /** Answers are from earlier parameters while the new ones load. */
  isPlaceholder: boolean;
  error: unknown;
  refetch: () => void;
}

/**
 * Pages of `GET /api/runs/list` (200 rows each) for the page indices in view: the table asks
 * only for what it shows, so a 10,000-run project costs one or two requests at a time.
 */
export function useRunPages(params: RunListParams, pages: readonly number[]): RunPages {
  // Page 0 is always asked for: it carries the total that sizes the table.
  const wanted = pages.includes(0) ? pages : [0, ...pages];
  // A new sort, filter or search goes before the live charts' polls in flight (they ask again).
  const client = useQueryClient();
  const paramsKey = JSON.stringify(params);
  const shownKey = useRef(paramsKey);
  useEffect(() => {
    if (shownKey.current === paramsKey) return;
    shownKey.current = paramsKey;
    void cancelChartPolls(client);
  }, [client, paramsKey]);
  const results = useQueries({
    queries: wanted.map((page) => ({
      ...runListPageQuery(params, page),
      refetchInterval: 30_000,
    })),
  });
  // A new sort or filter returns the table to its top: the first page of the previous answer
  // stays on screen (marked stale) until the new one arrives, so rows do not flash away.
  const lastTop = useRef<RunListAnswer | undefined>(undefined);
  const top = results[0]?.data;
  if (top) lastTop.current = top;
  const isPlaceholder = !top && lastTop.current !== undefined && !results[0]?.isError;
  const byPage = new Map<number, RunListAnswer>();
  results.forEach((r, i) => {
    if (r.data) byPage.set(wanted[i]!, r.data);
  });
  if (isPlaceholder) byPage.set(0, lastTop.current!);
  return {
    firstPage: byPage.get(0)?.runs,
    rowAt: (index) => byPage.get(Math.floor(index / RUN_PAGE_SIZE))?.runs[index % RUN_PAGE_SIZE],
    total: byPage.get(0)?.total,
    isPending: byPage.size === 0 && results.some((r) => r.isPending),
    isFetching: results.some((r) => r.isFetching),
    isPlaceholder,
    error: results.find((r) => r.error)?.error ?? null,
    refetch: () => results.forEach((r) => void r.refetch()),
  };
}

const LEADERBOARD_PAGE = 50;

/** The parameters of run search that narrow the leaderboard too (docs/api.md §4.7). */
export type RunNarrowing = Pick<RunListParams, 'search' | 'tags' | 'status' | 'filter'>;

/**
 * `GET /api/runs/leaderboard` of the runs the narrowing keeps (every run without one),
 * LEADERBOARD_PAGE runs a page, the next page's offset from the rows so far.
 */
export const leaderboardQuery = (
  projectName: string,
  logName: string,
  aggregation: Aggregation,
  direction: Direction,
  narrowing: RunNarrowing = {},
) =>
  infiniteQueryOptions({
    queryKey: ['leaderboard', projectName, logName, aggregation, direction, narrowing],
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      apiGet<LeaderboardAnswer>(
        '/api/runs/leaderboard',
        {
          projectName,
          logName,
          aggregation,
          direction,
          search: narrowing.search || undefined,
          tags: narrowing.tags,
          status: narrowing.status,
          filter: narrowing.filter?.trim() ? narrowing.filter : undefined,
          limit: LEADERBOARD_PAGE,
          offset: pageParam,
        },
        signal,
      ),
    getNextPageParam: (last, all) => {
      const loaded = all.reduce((n, p) => n + p.runs.length, 0);
      return loaded < last.total && last.runs.length > 0 ? loaded : undefined;
    },
  });

/** The project's runs (those the narrowing keeps) ranked by one metric; more pages on `fetchNextPage`. */
export function useLeaderboard(
  projectName: string,
  logName: string,
  aggregation: Aggregation,
  direction: Direction,
  narrowing: RunNarrowing = {},
) {
  return useInfiniteQuery({
    ...leaderboardQuery(projectName, logName, aggregation, direction, narrowing),
    enabled: logName !== '',
    placeholderData: keepPreviousData,
  });
}
