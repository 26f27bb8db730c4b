import { Link } from 'react-router';
import { projectPath, projectsPath } from '../paths';
import './run-page.css';

/**
 * The page for a run that cannot be shown here: an unknown or undecodable SQID, a run of
 * another organization (the API answers those exactly like missing ones), or a run that
 * lives in another project than the URL says (`actualProject` then links to it).
 */
export function RunNotFound(props: { org: string; project: string; actualProject?: string; actualPath?: string }) {
  const { org, project, actualProject, actualPath } = props;
  return (
    <section className="card not-found" aria-labelledby="run-not-found-title">
      <h1 id="run-not-found-title">Run not found</h1>
      {actualProject && actualPath ? (
        <p>
          This run is not in project <strong>{project}</strong>. It belongs to project{' '}
          <Link to={actualPath}>{actualProject}</Link>.
        </p>
      ) : (
        <p className="muted">
          There is no run at this address in your organization. The link may be mistyped, or the run may belong to an
          organization you are not signed in to.
        </p>
      )}
      <ul className="not-found-links">
        <li>
          <Link to={projectPath(org, project)}>Runs of {project}</Link>
        </li>
        <li>
          <Link to={projectsPath(org)}>All projects</Link>
        </li>
      </ul>
    </section>
  );
}
