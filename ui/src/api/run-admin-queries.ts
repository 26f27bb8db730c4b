/**
 * Run management: the trash (delete, restore), stopping and renaming runs, and a project's
 * settings, rename and delete (docs/api.md §14). Every write refreshes the lists and runs
 * it changes.
 */
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Success } from '@server/api/schemas/common';
import type { ProjectSettings, RenamedProject, RunCount, TrashList } from '@server/api/schemas/run-admin';
import { apiGet, apiPost } from './client';

/** `GET /api/runs/trash?projectName=`: the project's trashed runs, latest first. */
export const trashQuery = (projectName: string) =>
  queryOptions({
    queryKey: ['trash', projectName],
    queryFn: ({ signal }) => apiGet<TrashList>('/api/runs/trash', { projectName, limit: 1000 }, signal),
  });

/** `GET /api/runs/projects/settings?projectName=`. */
export const projectSettingsQuery = (projectName: string) =>
  queryOptions({
    queryKey: ['project-settings', projectName],
    queryFn: ({ signal }) => apiGet<ProjectSettings>('/api/runs/projects/settings', { projectName }, signal),
  });

/** `GET /api/runs/projects/renamed?projectName=`: the current name of a project once named so, or null. */
export const renamedProjectQuery = (projectName: string) =>
  queryOptions({
    queryKey: ['project-renamed', projectName],
    queryFn: ({ signal }) => apiGet<RenamedProject>('/api/runs/projects/renamed', { projectName }, signal),
    staleTime: Infinity,
  });

/** The project's trashed runs. */
export const useTrash = (projectName: string) =>
  useQuery({ ...trashQuery(projectName), select: (answer) => answer.runs });

/** A project's settings. */
export const useProjectSettings = (projectName: string) => useQuery(projectSettingsQuery(projectName));

/** The current name of a project once named `projectName` (null: none); asked only when `enabled`. */
export const useRenamedProject = (projectName: string, enabled: boolean) =>
  useQuery({ ...renamedProjectQuery(projectName), enabled, select: (answer) => answer.projectName });

/** Refreshes every list and run a management write may change. */
function refreshRuns(client: QueryClient): Promise<void> {
  return Promise.all(
    [
      'runs-list',
      'leaderboard',
      'projects',
      'trash',
      'run-details',
      'run-history',
      'run-forks',
      'compare',
      'metric-names',
      'project-settings',
    ].map((key) => client.invalidateQueries({ queryKey: [key] })),
  ).then(() => undefined);
}

/** One POST of the run-management API that refreshes the runs afterwards. */
function useAdminWrite<V, T>(url: string, body: (v: V) => unknown) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: V) => apiPost<T>(url, body(v)),
    // Not awaited: a caller's own onSuccess (leaving a renamed or deleted project's page)
    // runs first, so that page does not ask for its project again.
    onSuccess: () => void refreshRuns(client),
  });
}

/** `POST /api/runs/delete`: moves runs to the trash. */
export const useDeleteRuns = () => useAdminWrite<number[], RunCount>('/api/runs/delete', (runIds) => ({ runIds }));
/** `POST /api/runs/restore`: brings trashed runs back. */
export const useRestoreRuns = () => useAdminWrite<number[], RunCount>('/api/runs/restore', (runIds) => ({ runIds }));
/** `POST /api/runs/stop`: CANCELLED by a user. */
export const useStopRun = () => useAdminWrite<number, Success>('/api/runs/stop', (runId) => ({ runId }));
/** `POST /api/runs/name/update`. */
export const useRenameRun = () =>
  useAdminWrite<{ runId: number; name: string }, Success>('/api/runs/name/update', (v) => v);
/** `POST /api/runs/projects/rename`. */
export const useRenameProject = () =>
  useAdminWrite<{ projectName: string; newName: string }, Success>('/api/runs/projects/rename', (v) => v);
/** `POST /api/runs/projects/delete`: the project and its runs to the trash. */
export const useDeleteProject = () =>
  useAdminWrite<string, RunCount>('/api/runs/projects/delete', (projectName) => ({ projectName }));
/** `POST /api/runs/projects/settings/update`. */
export const useSetRetention = () =>
  useAdminWrite<{ projectName: string; retentionDays: number | null }, Success>(
    '/api/runs/projects/settings/update',
    (v) => v,
  );
