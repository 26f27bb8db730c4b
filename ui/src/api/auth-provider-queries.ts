/** The sign-in methods the server offers besides keys and passwords (docs/api.md §16). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AuthProviders } from '@server/api/schemas/oidc';
import { apiGet } from './client';

/** `GET /api/auth/providers` (public): whether "Sign in with SSO" is offered. */
export const authProvidersQuery = () =>
  queryOptions({
    queryKey: ['auth-providers'],
    queryFn: ({ signal }) => apiGet<AuthProviders>('/api/auth/providers', undefined, signal),
    staleTime: Infinity,
  });

/** The server's sign-in methods (fetched once a page load). */
export const useAuthProviders = () => useQuery(authProvidersQuery());
