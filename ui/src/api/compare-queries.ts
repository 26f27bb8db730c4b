/**
 * The compare page's data: each chosen run's details (a 404 marks an unknown or foreign
 * id) and the per-run statistics of one metric
 * (`GET /api/runs/compare`: runIds ≤ 100, projectName and logName are required).
 */
import { useEffect } from 'react';
import { keepPreviousData, queryOptions, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Compare } from '@server/api/schemas/rankings';
import { apiGet } from './client';
import type { RunDetails } from '@server/api/schemas/runs';
import { LIVE_DETAILS_MS, runDetailsQuery } from './run-queries';
import { chartNamesRequest, metricNamesQuery } from './metric-queries';

/** How often a compare page with a RUNNING run asks again. */
const LIVE_COMPARE_MS = 5_000;

/** `GET /api/runs/compare`: the statistics of one metric for each run. */
export const compareStatsQuery = (projectName: string, runIds: readonly number[], logName: string) =>
  queryOptions({
    queryKey: ['compare', projectName, runIds.join(','), logName],
    queryFn: ({ signal }) => apiGet<Compare>('/api/runs/compare', { projectName, runIds, logName }, signal),
  });

/** Each run's details, in the order given; a RUNNING run is asked again every few seconds. */
export function useRunsDetails(runIds: readonly number[]) {
  return useQueries({
    queries: runIds.map((runId) => ({
      ...runDetailsQuery(runId),
      refetchInterval: (query: { state: { data?: RunDetails } }) =>
        query.state.data?.status === 'RUNNING' ? LIVE_DETAILS_MS : false,
      refetchIntervalInBackground: false,
    })),
  });
}

/** The statistics of one metric for each run (unknown or foreign ids are left out by the API). */
export function useCompareStats(projectName: string, runIds: readonly number[], logName: string, live: boolean) {
  return useQuery({
    ...compareStatsQuery(projectName, runIds, logName),
    enabled: runIds.length > 0 && logName !== '',
    placeholderData: keepPreviousData,
    refetchInterval: live ? LIVE_COMPARE_MS : false,
    refetchIntervalInBackground: false,
  });
}

/**
 * Asks for the charts' metric names of `runIds` in `projectName` at once, beside the runs'
 * details rather than after them: the charts' own request (chartNamesRequest of the runs
 * found in the project, usually all of them) then finds its answer on its way, and their
 * series requests wait for one round trip less. A failure is left to the charts' request.
 */
export function usePrefetchChartNames(projectName: string, runIds: readonly number[]) {
  const client = useQueryClient();
  const key = runIds.join(',');
  useEffect(() => {
    const r = chartNamesRequest(
      projectName,
      runIds.map((runId) => ({ runId })),
      true,
    );
    if (!r.enabled) return;
    void client.prefetchQuery({
      ...metricNamesQuery(r.projectName, r.runIds, r.limit),
      staleTime: r.staleTime,
      retry: false,
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by the ids' text
  }, [client, projectName, key]);
}
