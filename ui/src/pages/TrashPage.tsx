import { useParams } from 'react-router';
import { useRestoreRuns, useTrash } from '../api/run-admin-queries';
import { ActionCell } from '../components/ActionCell';
import { ErrorState, Loading } from '../components/States';
import { TableHead } from '../components/TableHead';
import { formatTime } from '../format';
import { ProjectCrumbs } from '../projects/ProjectCrumbs';
import './manage.css';

/**
 * A project's trash (`/o/:org/projects/:project/trash`): its deleted runs, the latest first,
 * each with a Restore button. Runs are purged for good after the server's trash TTL.
 */
export function TrashPage() {
  const { org = '', project = '' } = useParams();
  const trash = useTrash(project);
  const restore = useRestoreRuns();
  return (
    <div className="manage-page">
      <ProjectCrumbs org={org} project={project} page="Trash" />
      <h1>Trash of {project}</h1>
      <p className="muted">
        Deleted runs stay here until they are purged (after 7 days unless the server says otherwise).
      </p>
      {restore.isError && (
        <p role="alert" className="confirm-error">
          {restore.error.message}
        </p>
      )}
      {trash.isPending ? (
        <Loading label="Loading the trash…" />
      ) : trash.isError ? (
        <ErrorState error={trash.error} onRetry={() => void trash.refetch()} />
      ) : trash.data.length === 0 ? (
        <p>The trash is empty.</p>
      ) : (
        <table aria-label="Deleted runs">
          <TableHead labels={['Run', 'ID', 'Status', 'Deleted']} />
          <tbody>
            {trash.data.map((run) => (
              <tr key={run.id}>
                <th scope="row">{run.name}</th>
                <td className="mono">{run.displayId}</td>
                <td>{run.status}</td>
                <td>
                  <time dateTime={run.deletedAt}>{formatTime(run.deletedAt)}</time>
                </td>
                <ActionCell disabled={restore.isPending} onClick={() => restore.mutate([run.id])}>
                  Restore
                </ActionCell>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
