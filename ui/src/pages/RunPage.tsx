import { Link, Navigate, useParams } from 'react-router';
import { useRenamedProject } from '../api/run-admin-queries';
import { ApiError } from '../api/client';
import { useRunDetails, useRunIdFromSqid } from '../api/run-queries';
import { useSession } from '../api/session';
import { ErrorState, Loading } from '../components/States';
import { projectPath, projectsPath } from '../paths';
import { RunNotFound } from '../run/RunNotFound';
import { RunView } from '../run/RunView';
import { pathOf } from '../run/url-path';
import '../run/page-chrome.css';
import '../run/run-page.css';

/** 404 (unknown or another organization's run) and 400 (not a SQID) both mean "no such run here". */
const isMissing = (error: unknown): boolean =>
  error instanceof ApiError && (error.status === 404 || error.status === 400);

/**
 * A run's page (`/o/:org/projects/:project/:sqid`): the SQID is resolved to a run id, the
 * run's details are read (and polled while it runs), and a run that is not in this
 * organization and project gets a "Run not found" page with links back.
 */
export function RunPage() {
  const { org = '', project = '', sqid = '' } = useParams();
  const session = useSession();
  const ownOrg = session.data?.organization.slug ?? org;
  const resolved = useRunIdFromSqid(sqid);
  const details = useRunDetails(resolved.data?.runId, true);

  // A link from before its project was renamed leads to the run under the new name.
  const moved = details.data !== undefined && details.data.projectName !== project;
  const renamed = useRenamedProject(project, moved);
  const error = resolved.error ?? (details.data ? null : details.error);
  if (error) {
    if (isMissing(error)) return <RunNotFound org={ownOrg} project={project} />;
    return (
      <ErrorState error={error} onRetry={() => void (resolved.isError ? resolved.refetch() : details.refetch())} />
    );
  }
  if (!details.data) return <Loading label="Loading run…" />;
  const run = details.data;
  if (org !== ownOrg) return <RunNotFound org={ownOrg} project={project} />;
  if (run.projectName !== project && renamed.isPending) return <Loading label="Loading run…" />;
  if (run.projectName !== project && renamed.data === run.projectName) {
    return <Navigate to={pathOf(run.url)} replace />;
  }
  if (run.projectName !== project) {
    return <RunNotFound org={ownOrg} project={project} actualProject={run.projectName} actualPath={pathOf(run.url)} />;
  }
  return (
    <div className="run-page">
      <nav className="breadcrumbs" aria-label="Breadcrumb">
        <Link to={projectsPath(org)}>Projects</Link>
        <span aria-hidden="true"> / </span>
        <Link to={projectPath(org, project)}>{project}</Link>
        <span aria-hidden="true"> / </span>
        <span aria-current="page">{run.displayId}</span>
      </nav>
      {details.isError && (
        <p className="live-error" role="alert">
          Live updates paused: {details.error.message}. Retrying…
        </p>
      )}
      <RunView run={run} />
    </div>
  );
}
