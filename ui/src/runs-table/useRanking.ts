import type { LeaderboardRow as RankedRun } from '@server/api/schemas/rankings';
import type { Aggregation, Direction } from '@server/domain/aggregation';
import { useLeaderboard, useRunListFromTop } from '../api/run-list-queries';
import { isFiltered, type RunsView } from './useRunsView';

/** What the leaderboard shows, from whichever read ranks the runs. */
export interface Ranking {
  runs: RankedRun[];
  /** Ranked runs in all; undefined until the first page answers. */
  total: number | undefined;
  /** The table's filters narrowed the ranking. */
  filtered: boolean;
  isPending: boolean;
  isSuccess: boolean;
  isPlaceholderData: boolean;
  error: Error | null;
  refetch: () => void;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => void;
}

/** `filter` AND "the run has a value of `metric`" (a filter that is not JSON is sent as it is, for the API to refuse). */
function withMetric(filter: string, metric: string): string {
  const has = { [`summary_metrics.${metric}`]: { $exists: true } };
  if (filter.trim() === '') return JSON.stringify(has);
  try {
    return JSON.stringify({ $and: [JSON.parse(filter) as unknown, has] });
  } catch {
    return filter;
  }
}

/**
 * The project's runs ranked by `metric`. Without filters, or with an aggregation other than
 * the last value, `GET /api/runs/leaderboard` ranks every run (it takes no filters). With
 * filters and the last value, `GET /api/runs/list` ranks the runs that the table's filters
 * keep and that have the metric, sorted by `summary_metrics.<metric>`.
 */
export function useRanking(
  project: string,
  view: RunsView,
  metric: string,
  aggregation: Aggregation,
  direction: Direction,
): Ranking {
  const filtered = isFiltered(view) && aggregation === 'LAST';
  const board = useLeaderboard(project, filtered ? '' : metric, aggregation, direction);
  const listed = useRunListFromTop(
    {
      projectName: project,
      search: view.search,
      tags: view.tags,
      status: view.status,
      filter: withMetric(view.filter, metric),
      sort: `${direction === 'DESC' ? '-' : ''}summary_metrics.${metric}`,
      metrics: [metric],
    },
    filtered && metric !== '',
  );
  const read = filtered ? listed : board;
  const runs: RankedRun[] = filtered
    ? (listed.data?.pages.flatMap((p) => p.runs) ?? []).map((r, i) => ({
        rank: i + 1,
        runId: r.id,
        runName: r.name,
        status: r.status,
        url: r.url,
        value: r.summary?.[metric]?.last ?? NaN,
        tags: r.tags,
        createdAt: r.createdAt,
        config: r.config,
      }))
    : (board.data?.pages.flatMap((p) => p.runs) ?? []);
  return {
    runs,
    total: read.data?.pages[0]?.total,
    filtered,
    isPending: metric !== '' && read.isPending,
    isSuccess: read.isSuccess,
    isPlaceholderData: read.isPlaceholderData,
    error: read.error,
    refetch: () => void read.refetch(),
    hasNextPage: read.hasNextPage,
    isFetchingNextPage: read.isFetchingNextPage,
    fetchNextPage: () => void read.fetchNextPage(),
  };
}
