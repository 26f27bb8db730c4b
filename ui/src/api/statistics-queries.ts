/** A run's per-metric statistics (`GET /api/runs/statistics`, docs/api.md §4.6). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Statistics } from '@server/api/schemas/metrics';
import { apiGet } from './client';

/** How often a live run's statistics are asked again. */
const LIVE_STATISTICS_MS = 10_000;

/** `GET /api/runs/statistics?runId=&projectName=`: every metric's count, min, max, mean, stddev and last point, by name. */
export const runStatisticsQuery = (runId: number, projectName: string) =>
  queryOptions({
    queryKey: ['run-statistics', runId, projectName],
    queryFn: ({ signal }) => apiGet<Statistics>('/api/runs/statistics', { runId, projectName }, signal),
  });

/** A run's statistics; asked again every 10 s while `live` (and the tab is visible). */
export function useRunStatistics(runId: number, projectName: string, live: boolean) {
  return useQuery({
    ...runStatisticsQuery(runId, projectName),
    refetchInterval: live ? LIVE_STATISTICS_MS : false,
    refetchIntervalInBackground: false,
  });
}
