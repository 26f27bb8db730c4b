/** How a leaderboard turns a run's metric summary into one number. */
export const AGGREGATIONS = ['MIN', 'MAX', 'AVG', 'LAST', 'VARIANCE'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

/** Ranking order: ASC lowest first, DESC highest first; ties always by runId ascending. */
export const DIRECTIONS = ['ASC', 'DESC'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/** One ranked run. */
export interface RankedRun {
  runId: number;
  value: number;
}

/** Sorts ranked runs by value in the direction, ties by runId ascending (in place; returns it). */
export function sortRanked(rows: RankedRun[], direction: Direction): RankedRun[] {
  const sign = direction === 'ASC' ? 1 : -1;
  return rows.sort((a, b) => (a.value === b.value ? a.runId - b.runId : sign * (a.value - b.value)));
}
