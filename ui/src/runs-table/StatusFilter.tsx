import { Popover } from './Popover';

/** Run statuses the API knows. */
export const RUN_STATUSES = ['RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED', 'TERMINATED'] as const;

/** "Status" drop-down: a checkbox per status; none checked means every status. */
export function StatusFilter({ value, onChange }: { value: string[]; onChange: (next: string[]) => void }) {
  const toggle = (status: string, on: boolean) =>
    onChange(on ? RUN_STATUSES.filter((s) => s === status || value.includes(s)) : value.filter((s) => s !== status));
  return (
    <Popover label="Status" badge={value.length ? String(value.length) : undefined}>
      <fieldset className="plain-fieldset">
        <legend className="visually-hidden">Show runs with status</legend>
        {RUN_STATUSES.map((status) => (
          <label key={status} className="check-row">
            <input
              type="checkbox"
              checked={value.includes(status)}
              onChange={(e) => toggle(status, e.target.checked)}
            />
            <span className={`status status-${status}`}>{status}</span>
          </label>
        ))}
      </fieldset>
      {value.length > 0 && (
        <button type="button" className="secondary small" onClick={() => onChange([])}>
          Any status
        </button>
      )}
    </Popover>
  );
}
