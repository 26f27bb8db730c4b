import '../pages/manage.css';
import { useEffect, useId, useRef } from 'react';
import { useDeleteRuns } from '../api/run-admin-queries';

/** How many names the confirmation lists before "and N more". */
const NAMED = 20;

/**
 * Asks before moving the selected runs to the trash, naming them (a modal dialog: Escape
 * or Cancel keeps them). `names` are the selected runs' names as loaded, by id.
 */
export function DeleteRunsDialog({
  runIds,
  names,
  project,
  onClose,
  onDeleted,
}: {
  runIds: number[];
  names: Map<number, string>;
  project: string;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const remove = useDeleteRuns();
  const id = useId();
  useEffect(() => {
    const el = dialog.current;
    if (el && !el.open) el.showModal();
  }, []);
  const listed = runIds.slice(0, NAMED);
  const count = runIds.length === 1 ? '1 run' : `${runIds.length} runs`;
  return (
    <dialog
      ref={dialog}
      className="confirm-dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      onClose={onClose}
    >
      <h2 id={`${id}-title`}>Delete {count}?</h2>
      <div id={`${id}-body`}>
        <ul className="confirm-names">
          {listed.map((runId) => (
            <li key={runId}>{names.get(runId) ?? `run ${runId}`}</li>
          ))}
          {runIds.length > NAMED && <li className="muted">and {runIds.length - NAMED} more</li>}
        </ul>
        <p>
          They move to the trash of {project}: restorable from there until they are purged (after 7 days by default).
        </p>
      </div>
      {remove.isError && (
        <p role="alert" className="confirm-error">
          {remove.error.message}
        </p>
      )}
      <div className="confirm-actions">
        <button type="button" className="secondary" onClick={() => dialog.current?.close()} autoFocus>
          Cancel
        </button>
        <button
          type="button"
          className="danger"
          disabled={remove.isPending}
          onClick={() => remove.mutate(runIds, { onSuccess: onDeleted })}
        >
          Delete {count}
        </button>
      </div>
    </dialog>
  );
}
