/**
 * The console line nearest a time: `GET /api/runs/logs` has no time parameter, so the lines
 * (in the order they were logged, their times rising) are searched by halving, one line per
 * request — about 17 requests for 100,000 lines.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from './client';
import type { LogLine, LogPage } from '@server/api/schemas/logs';

/** A line found for a time: its 0-based position under the type filter, and the line. */
export interface LogSeek {
  index: number;
  line: LogLine;
}

const lineAt = (runId: number, projectName: string, logType: string, offset: number, signal: AbortSignal) =>
  apiGet<LogPage>('/api/runs/logs', { runId, projectName, logType: logType || undefined, offset, limit: 1 }, signal);

/** The position of the line nearest `timeMs` (the earlier one on a tie); null when there are no lines. */
export async function seekLogTime(
  runId: number,
  projectName: string,
  logType: string,
  timeMs: number,
  signal: AbortSignal,
): Promise<LogSeek | null> {
  const first = await lineAt(runId, projectName, logType, 0, signal);
  const total = first.total;
  if (total === 0 || first.logs.length === 0) return null;
  const known = new Map<number, LogLine>([[0, first.logs[0]!]]);
  const at = async (index: number): Promise<LogLine | undefined> => {
    if (!known.has(index)) {
      const page = await lineAt(runId, projectName, logType, index, signal);
      if (page.logs[0]) known.set(index, page.logs[0]);
    }
    return known.get(index);
  };
  const timeOf = (line: LogLine | undefined) => (line ? Date.parse(line.time) : Infinity);
  // The first line at or after timeMs (total when none is).
  let lo = 0;
  let hi = total;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (timeOf(await at(mid)) < timeMs) lo = mid + 1;
    else hi = mid;
  }
  const after = lo < total ? await at(lo) : undefined;
  const before = lo > 0 ? await at(lo - 1) : undefined;
  if (before && (!after || timeMs - timeOf(before) <= timeOf(after) - timeMs)) return { index: lo - 1, line: before };
  if (after) return { index: lo, line: after };
  return null;
}

/** The search of seekLogTime as a query (cached for 30 s); `timeMs` must be set before it runs. */
export const logSeekQuery = (runId: number, projectName: string, logType: string, timeMs: number | null) =>
  queryOptions({
    queryKey: ['run-logs-seek', runId, logType, timeMs],
    queryFn: ({ signal }) => seekLogTime(runId, projectName, logType, timeMs!, signal),
    staleTime: 30_000,
  });

/** The console line nearest `timeMs` under the type filter; idle while `timeMs` is null. */
export const useLogSeek = (runId: number, projectName: string, logType: string, timeMs: number | null) =>
  useQuery({ ...logSeekQuery(runId, projectName, logType, timeMs), enabled: timeMs !== null });
