import { Link } from 'react-router';
import { projectPath, projectsPath } from '../paths';

/** The breadcrumb of a project's sub-page: Projects / <project> / <page>. */
export function ProjectCrumbs({ org, project, page }: { org: string; project: string; page: string }) {
  return (
    <nav aria-label="Breadcrumb" className="breadcrumb">
      <Link to={projectsPath(org)}>Projects</Link>
      <span aria-hidden="true"> / </span>
      <Link to={projectPath(org, project)}>{project}</Link>
      <span aria-hidden="true"> / </span>
      <span aria-current="page">{page}</span>
    </nav>
  );
}
