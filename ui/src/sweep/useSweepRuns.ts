import { useQueries, useQuery } from '@tanstack/react-query';
import type { RunRow } from '@server/api/schemas/runs';
import { RUN_PAGE_SIZE, runListPageQuery, type RunListParams } from '../api/run-list-queries';

/** The most runs the sweep panels draw: the first five pages of the list, newest first. */
export const MAX_SWEEP_RUNS = 1000;

/**
 * The runs the sweep panels draw (at most MAX_SWEEP_RUNS, newest first) with the summary of
 * `metric`, narrowed by the view's filters but not by its brushes (a brushed-out run is
 * drawn faded). `total` is every match; `capped` when more match than are drawn.
 */
export function useSweepRuns(params: Omit<RunListParams, 'sort' | 'metrics'>, metric: string) {
  const list: RunListParams = { ...params, metrics: metric ? [metric] : [] };
  const first = useQuery(runListPageQuery(list, 0));
  const total = first.data?.total ?? 0;
  const pages = Math.min(Math.ceil(total / RUN_PAGE_SIZE), MAX_SWEEP_RUNS / RUN_PAGE_SIZE);
  const rest = useQueries({
    queries: Array.from({ length: Math.max(0, pages - 1) }, (_, i) => runListPageQuery(list, i + 1)),
  });
  const all = [first, ...rest];
  const runs: RunRow[] = all.flatMap((r) => r.data?.runs ?? []);
  return {
    runs,
    total,
    capped: total > MAX_SWEEP_RUNS,
    isPending: all.some((r) => r.isPending),
    error: all.find((r) => r.error)?.error ?? null,
    refetch: () => all.forEach((r) => void r.refetch()),
  };
}
