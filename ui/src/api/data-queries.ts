/**
 * Data lines of a run (`GET /api/runs/data`: runId, projectName, logName, limit ≤ 10,000,
 * offset): histograms, tables and text series, one line per logged step, `data` as text.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DataLine, DataPage } from '@server/api/schemas/logs';
import { apiGet } from './client';

/** Lines per request (the API's maximum). */
const PAGE = 10_000;
/** Most lines read for one log name; a longer series shows its first lines and says so. */
export const MAX_DATA_LINES = 50_000;

/** Every line of one log name (up to MAX_DATA_LINES), ordered by step, with the stored total. */
export const dataLinesQuery = (runId: number, projectName: string, logName: string) =>
  queryOptions({
    queryKey: ['run-data', runId, logName],
    queryFn: async ({ signal }) => {
      const lines: DataLine[] = [];
      let total = 0;
      do {
        const page = await apiGet<DataPage>(
          '/api/runs/data',
          { runId, projectName, logName, limit: PAGE, offset: lines.length },
          signal,
        );
        total = page.total;
        lines.push(...page.data);
        if (page.data.length === 0) break;
      } while (lines.length < Math.min(total, MAX_DATA_LINES));
      lines.sort((a, b) => a.step - b.step || a.time.localeCompare(b.time));
      return { lines, total };
    },
  });

/**
 * Every line of one log name (dataLinesQuery), asked again every 10 s while `live`; asked
 * only once `enabled` (the series scrolled near the viewport).
 */
export function useDataLines(runId: number, projectName: string, logName: string, live: boolean, enabled = true) {
  return useQuery({
    ...dataLinesQuery(runId, projectName, logName),
    enabled,
    refetchInterval: live ? 10_000 : false,
    staleTime: live ? 5_000 : 60_000,
  });
}
