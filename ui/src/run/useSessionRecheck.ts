import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { isUnauthorized } from '../api/client';

/**
 * When any of `errors` is a 401 (the session ended: signed out elsewhere, expired), checks
 * the session again; the signed-in frame then sends the browser to sign-in and back.
 */
export function useSessionRecheck(...errors: unknown[]): void {
  const client = useQueryClient();
  const expired = errors.some(isUnauthorized);
  useEffect(() => {
    // Reset, not invalidate: an invalidated query keeps its old answer beside the 401, and the
    // sign-in page would take that answer for a live session and send the browser back here.
    if (expired) void client.resetQueries({ queryKey: ['session'] });
  }, [expired, client]);
}
