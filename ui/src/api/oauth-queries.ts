import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Success } from '@server/api/schemas/common';
import type { ConnectedAppList, ConsentRedirect, ConsentRequest } from '@server/api/schemas/oauth';
import { apiGet, apiPost } from './client';

/** `GET /api/oauth/consent/{uid}`: the authorization waiting for this browser's consent. */
export const consentQuery = (uid: string) =>
  queryOptions({
    queryKey: ['oauth-consent', uid],
    queryFn: ({ signal }) => apiGet<ConsentRequest>(`/api/oauth/consent/${encodeURIComponent(uid)}`, undefined, signal),
    // An expired request stays expired: no retry, no refetch behind the user's back.
    retry: false,
    refetchOnWindowFocus: false,
  });

/** The consent request of `uid` (404 ApiError when it is unknown or has expired). */
export const useConsent = (uid: string) => useQuery(consentQuery(uid));

/** Allows or denies (`POST /api/oauth/consent/{uid}`); resolves to where the browser goes next. */
export function useDecideConsent(uid: string) {
  return useMutation({
    mutationFn: (decision: 'allow' | 'deny') =>
      apiPost<ConsentRedirect>(`/api/oauth/consent/${encodeURIComponent(uid)}`, { decision }),
  });
}

/** `GET /api/oauth/apps`. */
export const connectedAppsQuery = () =>
  queryOptions({
    queryKey: ['oauth-apps'],
    queryFn: ({ signal }) => apiGet<ConnectedAppList>('/api/oauth/apps', undefined, signal),
  });

/** The tool clients the signed-in user allowed in this organization, latest used first. */
export const useConnectedApps = () => useQuery({ ...connectedAppsQuery(), select: (answer) => answer.apps });

/** Revokes a connected app and all its tokens (`POST /api/oauth/apps/revoke`); refreshes the list. */
export function useRevokeApp() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (clientId: string) => apiPost<Success>('/api/oauth/apps/revoke', { clientId }),
    onSuccess: () => client.invalidateQueries({ queryKey: connectedAppsQuery().queryKey }),
  });
}
