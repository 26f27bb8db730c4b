import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ModelGraphAnswer } from '@server/api/schemas/runs';
import { ApiError, apiGet } from './client';

/** `GET /api/runs/modelGraph`: the run's graph, or null when it has none (the API's 404). */
export const modelGraphQuery = (runId: number) =>
  queryOptions({
    queryKey: ['model-graph', runId],
    queryFn: async ({ signal }) => {
      try {
        return (await apiGet<ModelGraphAnswer>('/api/runs/modelGraph', { runId }, signal)).graph;
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    staleTime: 60_000,
  });

/** A run's model graph, or null when it has none. */
export const useModelGraph = (runId: number) => useQuery(modelGraphQuery(runId));
