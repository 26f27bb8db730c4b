import { ApiError } from '../api/client';
import { ErrorState } from '../components/States';

/** Whether the API refused the request as asked (a 4xx): sending it again cannot help. */
export const isRefusal = (error: unknown): boolean => error instanceof ApiError && error.status < 500;

/**
 * A failed read of the runs: a refusal (a filter the API cannot run) shows the API's sentence
 * with "Edit filter" (when a filter JSON is set) and "Clear filter(s)" instead of sending the
 * same request again; anything else is an ErrorState with "Try again".
 */
export function FilterProblem({
  error,
  hasJsonFilter,
  onEdit,
  onClear,
  onRetry,
}: {
  error: unknown;
  hasJsonFilter: boolean;
  onEdit: () => void;
  onClear: () => void;
  onRetry: () => void;
}) {
  if (!isRefusal(error)) return <ErrorState error={error} onRetry={onRetry} />;
  const { message, code } = error as ApiError;
  return (
    <div className="state state-error" role="alert">
      <p className="state-title">{message}</p>
      <p className="muted">Code: {code}</p>
      <p className="state-actions">
        {hasJsonFilter && (
          <button type="button" onClick={onEdit}>
            Edit filter
          </button>
        )}
        <button type="button" className="secondary" onClick={onClear}>
          {hasJsonFilter ? 'Clear filter' : 'Clear filters'}
        </button>
      </p>
    </div>
  );
}
