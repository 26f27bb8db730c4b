import { Link } from 'react-router';
import type { Project } from '@server/api/schemas/projects';
import { formatAgo, formatTime } from '../format';
import { projectPath } from '../paths';

export type ProjectSort = 'activity' | 'name' | 'runs';

/** Projects in the chosen order. */
export function sortProjects(projects: readonly Project[], sort: ProjectSort): Project[] {
  const copy = [...projects];
  if (sort === 'name') return copy.sort((a, b) => a.name.localeCompare(b.name));
  if (sort === 'runs') return copy.sort((a, b) => b.runCount - a.runCount || a.name.localeCompare(b.name));
  return copy.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.name.localeCompare(b.name));
}

/** The projects as a table: name (a link to its runs), run count, last activity. */
export function ProjectsTable({
  org,
  projects,
  sort,
  onSort,
}: {
  org: string;
  projects: readonly Project[];
  sort: ProjectSort;
  onSort: (sort: ProjectSort) => void;
}) {
  const header = (key: ProjectSort, label: string, numeric = false) => (
    <th
      scope="col"
      aria-sort={sort === key ? (key === 'name' ? 'ascending' : 'descending') : 'none'}
      className={numeric ? 'num' : undefined}
    >
      <button type="button" className="th-sort" onClick={() => onSort(key)}>
        <span className="th-label">{label}</span>
        <span className="sort-mark" aria-hidden="true">
          {sort === key ? (key === 'name' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </th>
  );
  return (
    <div className="scroll-x projects-scroll">
      <table className="projects-table">
        <thead>
          <tr>
            {header('name', 'Project')}
            {header('runs', 'Runs', true)}
            {header('activity', 'Last activity')}
          </tr>
        </thead>
        <tbody>
          {projects.map((p) => (
            <tr key={p.id}>
              <td className="name-cell">
                <Link to={projectPath(org, p.name)}>{p.name}</Link>
              </td>
              <td className="num">{p.runCount.toLocaleString()}</td>
              <td>
                <time dateTime={p.updatedAt} title={formatTime(p.updatedAt)}>
                  {formatAgo(p.updatedAt)}
                </time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
