import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { isUnauthorized } from '../api/client';
import { ErrorState } from '../components/States';

/**
 * A failed read as an alert. A 401 means the session ended (signed out elsewhere, expired):
 * the session is checked again, and the signed-in frame then sends the browser to sign-in
 * and back here afterwards.
 */
export function QueryError({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const client = useQueryClient();
  const expired = isUnauthorized(error);
  useEffect(() => {
    if (expired) void client.invalidateQueries({ queryKey: ['session'] });
  }, [expired, client]);
  return <ErrorState error={error} onRetry={onRetry} />;
}
