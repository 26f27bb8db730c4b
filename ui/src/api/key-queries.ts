import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiKey, ApiKeyList, CreatedKey } from '@server/api/schemas/api-keys';
import { apiGet, apiPost } from './client';

/** `GET /api/keys`. */
export const apiKeysQuery = () =>
  queryOptions({
    queryKey: ['api-keys'],
    queryFn: ({ signal }) => apiGet<ApiKeyList>('/api/keys', undefined, signal),
  });

/** The API keys the signed-in user may manage (its own; every key of the organization for its admin), newest first. */
export const useApiKeys = () => useQuery({ ...apiKeysQuery(), select: (answer) => answer.keys });

/** Creates a key for the signed-in user (`expiresAt` ISO 8601 or none); refreshes the list. */
export function useCreateKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string; expiresAt?: string }) => apiPost<CreatedKey>('/api/keys', input),
    onSuccess: () => client.invalidateQueries({ queryKey: apiKeysQuery().queryKey }),
  });
}

/** Revokes one of those keys (`POST /api/keys/{id}/revoke`); refreshes the list. */
export function useRevokeKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiPost<ApiKey>(`/api/keys/${id}/revoke`, {}),
    // The session's own key ends the session, and the page signs out: the list is not read
    // again, since that read is refused and the refusal can unmount the page first.
    onSuccess: (key) => (key.current ? undefined : client.invalidateQueries({ queryKey: apiKeysQuery().queryKey })),
  });
}
