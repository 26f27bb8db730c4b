import { MutationCache, QueryCache, QueryClient, QueryClientProvider, type QueryKey } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { ApiError, isUnauthorized } from './api/client';
import { sessionQuery } from './api/session';
import { App } from './App';
import './styles.css';

/**
 * Reset, not invalidate: an invalidated query keeps its old answer beside the 401, and the
 * sign-in page would take that answer for a live session and send the browser back.
 */
function recheckSession(error: unknown, queryKey: QueryKey | undefined): void {
  const session = sessionQuery().queryKey;
  if (isUnauthorized(error) && queryKey?.[0] !== session[0]) void queryClient.resetQueries({ queryKey: session });
}

const queryClient: QueryClient = new QueryClient({
  // A read or write answered 401 means the session ended (signed out elsewhere, expired):
  // check the session again, and the signed-in frame sends the browser to sign-in and back.
  queryCache: new QueryCache({ onError: (error, query) => recheckSession(error, query.queryKey) }),
  mutationCache: new MutationCache({ onError: (error) => recheckSession(error, undefined) }),
  defaultOptions: {
    queries: {
      // A 4xx will not change by asking again; a network blip or 503 may.
      retry: (failures, error) => !(error instanceof ApiError && error.status < 500) && failures < 2,
      refetchOnWindowFocus: false,
      staleTime: 5_000,
    },
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
