import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Session } from '@server/api/schemas/session';
import { apiDelete, apiGet, apiPost } from './client';

/** `GET /api/runs/auth/validate`, not retried: a 401 means signed out. */
export const sessionQuery = () =>
  queryOptions({
    queryKey: ['session'],
    queryFn: ({ signal }) => apiGet<Session>('/api/runs/auth/validate', undefined, signal),
    retry: false,
    staleTime: 60_000,
  });

/** The current session; its error is an ApiError with status 401 when signed out. */
export const useSession = () => useQuery(sessionQuery());

/** What signs in: an API key, or an email and password. */
export type SignInInput = { apiKey: string } | { email: string; password: string };

/** Exchanges an API key or an email and password for a session cookie (`POST /api/session`); neither is kept. */
export function useSignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: SignInInput) => apiPost<Session>('/api/session', input),
    onSuccess: (session) => {
      client.clear();
      client.setQueryData(sessionQuery().queryKey, session);
    },
  });
}

/** Ends the session on the server (`DELETE /api/session`) and forgets every cached answer. */
export function useSignOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiDelete<void>('/api/session'),
    onSettled: () => client.clear(),
  });
}
