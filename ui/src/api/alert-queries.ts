/** A run's alerts (`GET /api/runs/alerts`), as the client posted them to `/api/runs/alert`. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Alert, AlertList } from '@server/api/schemas/logs';
import { apiGet } from './client';

/** One alert of a run; level, title and body are whatever the client sent (null when it sent none). */
export type RunAlert = Alert;

/** `GET /api/runs/alerts?runId=`: the run's alerts, oldest first. */
export const runAlertsQuery = (runId: number) =>
  queryOptions({
    queryKey: ['run-alerts', runId],
    queryFn: ({ signal }) => apiGet<AlertList>('/api/runs/alerts', { runId }, signal),
  });

/** A run's alerts, newest first; asked again every 10 s while `live` (and the tab is visible). */
export function useRunAlerts(runId: number, live: boolean) {
  return useQuery({
    ...runAlertsQuery(runId),
    select: (answer) => [...answer.alerts].reverse(),
    refetchInterval: live ? 10_000 : false,
    refetchIntervalInBackground: false,
  });
}
