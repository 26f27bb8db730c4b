/**
 * The run page's data: SQID → run id, run details (polled while RUNNING), its status
 * timeline, files, and the tag and notes writes. Every answer comes from the public API.
 */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Success } from '@server/api/schemas/common';
import type { RunFileList } from '@server/api/schemas/files';
import type { RunDetails, RunIdAnswer } from '@server/api/schemas/runs';
import type { StatusHistory } from '@server/api/schemas/status-events';
import { apiGet, apiPost } from './client';

/** How often a RUNNING run's details are asked again. */
export const LIVE_DETAILS_MS = 3_000;

/** `GET /api/runs/{sqid}`: the numeric run id behind a SQID; 400 undecodable, 404 unknown or foreign. */
export const runIdFromSqidQuery = (sqid: string) =>
  queryOptions({
    queryKey: ['run-sqid', sqid],
    queryFn: ({ signal }) => apiGet<RunIdAnswer>(`/api/runs/${encodeURIComponent(sqid)}`, undefined, signal),
    staleTime: Infinity,
  });

/** `GET /api/runs/details/{runId}`: one cache entry per run, shared by the run, compare and chart views. */
export const runDetailsQuery = (runId: number) =>
  queryOptions({
    queryKey: ['run-details', runId],
    queryFn: ({ signal }) => apiGet<RunDetails>(`/api/runs/details/${runId}`, undefined, signal),
  });

/** `GET /api/runs/status/history`, keyed also on `statusUpdated` so a status change asks again. */
export const statusHistoryQuery = (runId: number, statusUpdated: string) =>
  queryOptions({
    queryKey: ['run-history', runId, statusUpdated],
    queryFn: ({ signal }) => apiGet<StatusHistory>('/api/runs/status/history', { runId }, signal),
  });

/**
 * `GET /api/runs/files` for the Files table: fresh signed links on every answer (the Media
 * tab's own entry, mediaFilesQuery, keeps links it has shown, so the two do not share one).
 */
export const runFilesQuery = (runId: number, projectName: string) =>
  queryOptions({
    queryKey: ['run-files', runId],
    queryFn: ({ signal }) => apiGet<RunFileList>('/api/runs/files', { runId, projectName }, signal),
  });

/** The numeric run id behind a SQID (`GET /api/runs/{sqid}`); 400 undecodable, 404 unknown or foreign. */
export const useRunIdFromSqid = (sqid: string) => useQuery(runIdFromSqidQuery(sqid));

/**
 * A run's details; with `live`, asked again every 3 s while the run is RUNNING (never in a
 * hidden tab), so status changes arrive without reload.
 */
export function useRunDetails(runId: number | undefined, live = false) {
  return useQuery({
    ...runDetailsQuery(runId ?? -1),
    enabled: runId !== undefined,
    refetchInterval: (query) => (live && query.state.data?.status === 'RUNNING' ? LIVE_DETAILS_MS : false),
    refetchIntervalInBackground: false,
  });
}

/** A run's status transitions, oldest first; asked again whenever `statusUpdated` moves. */
export function useStatusHistory(runId: number, statusUpdated: string) {
  return useQuery({
    ...statusHistoryQuery(runId, statusUpdated),
    placeholderData: keepPreviousData,
    select: (answer) => answer.events,
  });
}

/** A run's files whose bytes have arrived (ordered by step); asked again every 10 s while `live`. */
export function useRunFiles(runId: number, projectName: string, live: boolean) {
  return useQuery({
    ...runFilesQuery(runId, projectName),
    select: (answer) => answer.files,
    refetchInterval: live ? 10_000 : false,
    refetchIntervalInBackground: false,
  });
}

/** Writes one field of a run and keeps the cached details in step with it. */
function useRunWrite<T>(runId: number, path: string, field: 'tags' | 'notes') {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (value: T) => apiPost<Success>(path, { runId, [field]: value }),
    onSuccess: (_answer, value) => {
      const { queryKey } = runDetailsQuery(runId);
      client.setQueryData(queryKey, (old) => (old ? { ...old, [field]: value } : old));
      void client.invalidateQueries({ queryKey });
    },
  });
}

/** Replaces all tags of a run (`POST /api/runs/tags/update`). */
export const useUpdateTags = (runId: number) => useRunWrite<string[]>(runId, '/api/runs/tags/update', 'tags');

/** Sets or clears (null) a run's notes (`POST /api/runs/notes/update`). */
export const useUpdateNotes = (runId: number) => useRunWrite<string | null>(runId, '/api/runs/notes/update', 'notes');
