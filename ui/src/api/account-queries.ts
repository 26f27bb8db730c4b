import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Account, SessionList } from '@server/api/schemas/account';
import type { Session } from '@server/api/schemas/session';
import { apiDelete, apiGet, apiPost } from './client';
import { sessionQuery } from './session';

/** `GET /api/account`: who is signed in, the role here, and every organization of the user. */
export const accountQuery = () =>
  queryOptions({
    queryKey: ['account'],
    queryFn: ({ signal }) => apiGet<Account>('/api/account', undefined, signal),
    staleTime: 60_000,
  });

export const useAccount = () => useQuery(accountQuery());

/** `GET /api/account/sessions`: the user's sessions and its keys', newest first. */
export const accountSessionsQuery = () =>
  queryOptions({
    queryKey: ['account', 'sessions'],
    queryFn: ({ signal }) => apiGet<SessionList>('/api/account/sessions', undefined, signal),
  });

export const useAccountSessions = () => useQuery({ ...accountSessionsQuery(), select: (answer) => answer.sessions });

/** Ends one session (`DELETE /api/account/sessions/{id}`); refreshes the list. */
export function useEndSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiDelete<void>(`/api/account/sessions/${encodeURIComponent(id)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: accountSessionsQuery().queryKey }),
  });
}

/** `POST /api/account/password`; the user's other password sessions end. */
export function useChangePassword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { currentPassword: string; newPassword: string }) =>
      apiPost<void>('/api/account/password', input),
    onSuccess: () => client.invalidateQueries({ queryKey: accountSessionsQuery().queryKey }),
  });
}

/** Moves the session to another organization of the user (`POST /api/account/organization`). */
export function useSwitchOrganization() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (organization: string) => apiPost<Session>('/api/account/organization', { organization }),
    onSuccess: (session) => {
      client.clear();
      client.setQueryData(sessionQuery().queryKey, session);
    },
  });
}
