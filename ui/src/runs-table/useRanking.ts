import type { LeaderboardRow as RankedRun } from '@server/api/schemas/rankings';
import type { Aggregation, Direction } from '@server/domain/aggregation';
import { useLeaderboard } from '../api/run-list-queries';
import { brushedFilter } from '../sweep/brush';
import { isFiltered, type RunsView } from './useRunsView';

/** What the leaderboard shows. */
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

/**
 * The project's runs that the table's filters keep (name search, statuses, tags, filter JSON, brushes),
 * ranked by an aggregate of `metric` through `GET /api/runs/leaderboard`, which takes the same
 * filters as the table's `GET /api/runs/list` for every aggregation.
 */
export function useRanking(
  project: string,
  view: RunsView,
  metric: string,
  aggregation: Aggregation,
  direction: Direction,
): Ranking {
  const { search, tags, status } = view;
  const filter = brushedFilter(view.filter, view.brushes);
  const board = useLeaderboard(project, metric, aggregation, direction, { search, tags, status, filter });
  return {
    runs: board.data?.pages.flatMap((p) => p.runs) ?? [],
    total: board.data?.pages[0]?.total,
    filtered: isFiltered(view),
    isPending: metric !== '' && board.isPending,
    isSuccess: board.isSuccess,
    isPlaceholderData: board.isPlaceholderData,
    error: board.error,
    refetch: () => void board.refetch(),
    hasNextPage: board.hasNextPage,
    isFetchingNextPage: board.isFetchingNextPage,
    fetchNextPage: () => void board.fetchNextPage(),
  };
}
