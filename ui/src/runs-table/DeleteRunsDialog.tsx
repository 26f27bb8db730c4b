import '../pages/manage.css';
import { useDeleteRuns } from '../api/run-admin-queries';
import { ConfirmDialog } from '../components/ConfirmDialog';

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
  const remove = useDeleteRuns();
  const listed = runIds.slice(0, NAMED);
  const count = runIds.length === 1 ? '1 run' : `${runIds.length} runs`;
  return (
    <ConfirmDialog
      title={`Delete ${count}?`}
      error={remove.isError ? remove.error.message : undefined}
      confirmLabel={`Delete ${count}`}
      busy={remove.isPending}
      onConfirm={() => remove.mutate(runIds, { onSuccess: onDeleted })}
      onClose={onClose}
    >
      <ul className="confirm-names">
        {listed.map((runId) => (
          <li key={runId}>{names.get(runId) ?? `run ${runId}`}</li>
        ))}
        {runIds.length > NAMED && <li className="muted">and {runIds.length - NAMED} more</li>}
      </ul>
      <p>They move to the trash of {project}: restorable from there until they are purged (after 7 days by default).</p>
    </ConfirmDialog>
  );
}
