/**
 * Saved views of a project's workspace: the list (without states), one view with its state,
 * and the writes, which refresh the project's list.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SavedView, SavedViewList } from '@server/api/schemas/saved-views';
import type { Json } from '@server/api/schemas/json';
import { apiDelete, apiGet, apiPatch, apiPost } from './client';

/** `GET /api/views?projectName=`: default first, then by name. */
export const savedViewsQuery = (projectName: string) =>
  queryOptions({
    queryKey: ['saved-views', projectName],
    queryFn: ({ signal }) => apiGet<SavedViewList>('/api/views', { projectName }, signal),
  });

/** `GET /api/views/{viewId}`: one view with its state. */
export const savedViewQuery = (viewId: number) =>
  queryOptions({
    queryKey: ['saved-view', viewId],
    queryFn: ({ signal }) => apiGet<SavedView>(`/api/views/${viewId}`, undefined, signal),
  });

/** The project's saved views. */
export const useSavedViews = (projectName: string) =>
  useQuery({ ...savedViewsQuery(projectName), select: (answer) => answer.views });

/** One saved view with its state; nothing asked while `viewId` is undefined. */
export const useSavedView = (viewId: number | undefined) =>
  useQuery({ ...savedViewQuery(viewId ?? 0), enabled: viewId !== undefined });

/** What a view is saved or changed with. */
export interface SavedViewFields {
  name?: string;
  state?: { [key: string]: Json };
  isDefault?: boolean;
}

/** Saves, changes and deletes views of a project; each refreshes its list and caches the view. */
export function useSavedViewWrites(projectName: string) {
  const client = useQueryClient();
  const settle = (view?: SavedView) => {
    if (view) client.setQueryData(savedViewQuery(view.id).queryKey, view);
    return client.invalidateQueries({ queryKey: savedViewsQuery(projectName).queryKey });
  };
  return {
    save: useMutation({
      mutationFn: (fields: SavedViewFields & { name: string; state: { [key: string]: Json } }) =>
        apiPost<SavedView>('/api/views', { projectName, ...fields }),
      onSuccess: settle,
    }),
    change: useMutation({
      mutationFn: ({ viewId, ...fields }: SavedViewFields & { viewId: number }) =>
        apiPatch<SavedView>(`/api/views/${viewId}`, fields),
      onSuccess: settle,
    }),
    remove: useMutation({
      mutationFn: (viewId: number) => apiDelete<void>(`/api/views/${viewId}`),
      onSuccess: () => settle(),
    }),
  };
}
