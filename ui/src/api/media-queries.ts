/**
 * The Media tab's and the compare page's data: a run's uploaded files (`GET /api/runs/files`)
 * narrowed to the log names of one kind (IMAGE, AUDIO, VIDEO). The server re-signs every link
 * on each answer; a file already shown keeps the link it had, so a poll does not reload it.
 */
import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { apiGet } from './client';
import type { RunFile, RunFileList } from '@server/api/schemas/files';

/** How often a RUNNING run's media list is asked again. */
export const LIVE_MEDIA_MS = 10_000;

/** What makes a stored file the same file across answers (its link aside). */
const identity = (f: RunFile) => `${f.logName}\u0000${f.step}\u0000${f.fileName}\u0000${f.time}\u0000${f.fileSize}`;

/** Keeps the previous answer's link of every file that is still the same file. */
function keepLinks(previous: unknown, next: unknown): unknown {
  const old = (previous as { files?: RunFile[] } | undefined)?.files;
  const fresh = (next as { files?: RunFile[] } | undefined)?.files;
  if (!old || !fresh) return next;
  const urls = new Map(old.map((f) => [identity(f), f.url]));
  return { files: fresh.map((f) => ({ ...f, url: urls.get(identity(f)) ?? f.url })) };
}

/**
 * `GET /api/runs/files` for media: an entry of its own (not runFilesQuery's), since it keeps
 * the links of files already shown.
 */
export const mediaFilesQuery = (runId: number, projectName: string) =>
  queryOptions({
    queryKey: ['media-files', runId],
    queryFn: ({ signal }) => apiGet<RunFileList>('/api/runs/files', { runId, projectName }, signal),
    structuralSharing: keepLinks,
  });

const selectFiles = (answer: { files: RunFile[] }) => answer.files;

/** A run's uploaded files (by step, then sample index, then name); asked again every 10 s while `live`. */
export function useMediaFiles(runId: number, projectName: string, live: boolean) {
  return useQuery({
    ...mediaFilesQuery(runId, projectName),
    select: selectFiles,
    refetchInterval: live ? LIVE_MEDIA_MS : false,
    refetchIntervalInBackground: false,
  });
}

/** The uploaded files of several runs (compare page), one query per run; none asked while `enabled` is false. */
export function useManyMediaFiles(runs: readonly { id: number; projectName: string }[], enabled: boolean) {
  return useQueries({
    queries: runs.map((run) => ({
      ...mediaFilesQuery(run.id, run.projectName),
      select: selectFiles,
      enabled,
    })),
  });
}
