import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { isUnauthorized } from '../api/client';
import { useSession } from '../api/session';
import { signInPath } from '../paths';
import { ErrorState, Loading } from './States';

/** Renders its children for a signed-in user; sends anyone else to sign-in and back here. */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.isPending) return <Loading label="Checking your session…" />;
  if (session.isError) {
    if (isUnauthorized(session.error)) {
      return <Navigate to={signInPath(location.pathname + location.search)} replace />;
    }
    return <ErrorState error={session.error} onRetry={() => void session.refetch()} />;
  }
  return <>{children}</>;
}
