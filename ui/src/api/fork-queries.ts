import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RunList } from '@server/api/schemas/runs';
import { apiGet } from './client';

/** Most forks listed at once (the API's largest page); `total` tells how many there are. */
export const FORK_LIMIT = 200;

/**
 * The runs forked from a run (they live in its project), oldest first:
 * `GET /api/runs/list?filter={"forkedFromRunId":<id>}`.
 */
export const runForksQuery = (runId: number, projectName: string) =>
  queryOptions({
    queryKey: ['run-forks', projectName, runId],
    queryFn: ({ signal }) =>
      apiGet<RunList>(
        '/api/runs/list',
        {
          projectName,
          filter: JSON.stringify({ forkedFromRunId: runId }),
          sort: 'createdAt',
          limit: FORK_LIMIT,
        },
        signal,
      ),
    staleTime: 15_000,
  });

/** The runs forked from a run, oldest first; asked again every 30 s. */
export const useRunForks = (runId: number, projectName: string) =>
  useQuery({ ...runForksQuery(runId, projectName), refetchInterval: 30_000 });
