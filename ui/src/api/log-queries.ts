/**
 * Console lines of a run (`GET /api/runs/logs`: runId, projectName, logType, limit ≤ 10,000,
 * offset), read in fixed pages so any number of lines can be browsed without loading them
 * all, and scanned page by page for a text search (the API has no search parameter).
 */
import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useQueries,
  useQueryClient,
} from '@tanstack/react-query';
import type { LogLine, LogPage } from '@server/api/schemas/logs';
import { apiGet } from './client';

/** The console types the API stores (CONSOLE_LOG_TYPES in src/domain/types.ts), in the order a filter lists them. */
export const CONSOLE_LOG_TYPES = ['PRINT', 'INFO', 'WARNING', 'ERROR', 'DEBUG'] as const;

/** Lines per page of the browsing view. */
export const LOG_PAGE = 500;
/** Lines per request of a search scan (the API allows 10,000). */
export const SEARCH_PAGE = 5_000;

/** The key every page of logPageQuery starts with: one run's lines under one type filter. */
const pagesKey = (runId: number, logType: string) => ['run-logs', runId, logType] as const;

const fetchLogs = (
  runId: number,
  projectName: string,
  logType: string,
  offset: number,
  limit: number,
  signal: AbortSignal,
) => apiGet<LogPage>('/api/runs/logs', { runId, projectName, logType: logType || undefined, offset, limit }, signal);

/** One LOG_PAGE page of the browsing view; a full page never changes, so it is never stale. */
export const logPageQuery = (runId: number, projectName: string, logType: string, index: number) =>
  queryOptions({
    queryKey: [...pagesKey(runId, logType), index],
    queryFn: ({ signal }) => fetchLogs(runId, projectName, logType, index * LOG_PAGE, LOG_PAGE, signal),
    staleTime: (query) => ((query.state.data?.logs.length ?? 0) >= LOG_PAGE ? Infinity : 0),
  });

/** SEARCH_PAGE lines at a time from the start, for a text search; the next offset follows the lines read. */
export const logScanQuery = (runId: number, projectName: string, logType: string) =>
  infiniteQueryOptions({
    queryKey: ['run-logs-scan', runId, logType],
    queryFn: ({ pageParam, signal }) => fetchLogs(runId, projectName, logType, pageParam, SEARCH_PAGE, signal),
    initialPageParam: 0,
    getNextPageParam: (last, _all, offset) =>
      last.logs.length > 0 && offset + last.logs.length < last.total ? offset + last.logs.length : undefined,
    staleTime: 30_000,
  });

/** What the browsing view knows: the line count and the lines of the loaded pages. */
export interface LogWindow {
  /** All lines matching the filter; undefined until the first page arrives. */
  total: number | undefined;
  /** The line at a 0-based position, when its page is loaded. */
  lineAt: (index: number) => LogLine | undefined;
  /** The first error of a page that failed, with a retry. */
  error: Error | null;
  retry: () => void;
}

/**
 * The pages holding positions `first..last`, and, while `tailMs` is set, the page after the
 * last full one, asked again every `tailMs` (never in a hidden tab) so new lines arrive.
 * Full pages are not asked again; the line count is the largest any page reported.
 */
export function useLogWindow(
  runId: number,
  projectName: string,
  logType: string,
  first: number,
  last: number,
  tailMs: number | false,
): LogWindow {
  const client = useQueryClient();
  const key = pagesKey(runId, logType);
  let known: number | undefined;
  for (const [, page] of client.getQueriesData<LogPage>({ queryKey: key })) {
    if (page && (known === undefined || page.total > known)) known = page.total;
  }
  const wanted = new Set<number>();
  if (known === undefined) wanted.add(0);
  else {
    for (let p = Math.floor(first / LOG_PAGE); p <= Math.floor(last / LOG_PAGE); p += 1) wanted.add(p);
    if (tailMs !== false) wanted.add(Math.floor(known / LOG_PAGE));
  }
  const tail = known === undefined ? 0 : Math.floor(known / LOG_PAGE);
  const indexes = [...wanted].sort((a, b) => a - b);
  const results = useQueries({
    queries: indexes.map((index) => ({
      ...logPageQuery(runId, projectName, logType, index),
      refetchInterval: index === tail && tailMs !== false ? tailMs : false,
      refetchIntervalInBackground: false,
    })),
  });
  const pages = new Map<number, LogLine[]>();
  let total = known;
  let error: Error | null = null;
  results.forEach((result, i) => {
    if (result.data) {
      pages.set(indexes[i]!, result.data.logs);
      if (total === undefined || result.data.total > total) total = result.data.total;
    }
    if (result.error && !error) error = result.error;
  });
  return {
    total,
    lineAt: (index) => pages.get(Math.floor(index / LOG_PAGE))?.[index % LOG_PAGE],
    error,
    retry: () => void client.refetchQueries({ queryKey: key, type: 'active' }),
  };
}

/**
 * Lines scanned for a text search, SEARCH_PAGE at a time from the start (the API cannot
 * search, so the page filters what it has read); `fetchNextPage` reads the next slice.
 */
export const useLogScan = (runId: number, projectName: string, logType: string, enabled: boolean) =>
  useInfiniteQuery({ ...logScanQuery(runId, projectName, logType), enabled });
