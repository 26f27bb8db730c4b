import { useMemo } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { useProjects } from '../api/project-queries';
import { useSession } from '../api/session';
import { Empty, ErrorState, Loading } from '../components/States';
import { ForeignOrganization } from '../projects/ForeignOrganization';
import { LoggingSnippet } from '../projects/LoggingSnippet';
import { type ProjectSort, ProjectsTable, sortProjects } from '../projects/ProjectsTable';
import '../runs-table/toolbar.css';
import './projects-page.css';
import { Field } from '../runs-table/Field';
import { SearchBox } from '../runs-table/SearchBox';

const SORTS: readonly ProjectSort[] = ['activity', 'name', 'runs'];

/** The organization's projects: filter by name, sort, open one. Filter and sort live in the URL. */
export function ProjectsPage() {
  const { org = '' } = useParams();
  const session = useSession();
  const projects = useProjects(true);
  const [params, setParams] = useSearchParams();
  const filter = params.get('q') ?? '';
  const sortParam = params.get('sort') as ProjectSort | null;
  const sort: ProjectSort = sortParam && SORTS.includes(sortParam) ? sortParam : 'activity';
  const set = (key: string, value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );
  const shown = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    const list = projects.data ?? [];
    return sortProjects(needle ? list.filter((p) => p.name.toLowerCase().includes(needle)) : list, sort);
  }, [projects.data, filter, sort]);

  const own = session.data?.organization.slug ?? org;
  if (own !== org) return <ForeignOrganization org={org} own={own} />;

  const total = projects.data?.length ?? 0;
  return (
    <div className="projects-page">
      <div className="projects-heading">
        <h1>Projects</h1>
        {projects.data && (
          <span className="muted" aria-live="polite">
            {filter ? `${shown.length} of ${total}` : total} {total === 1 ? 'project' : 'projects'}
          </span>
        )}
      </div>
      {projects.isPending ? (
        <Loading label="Loading projects…" />
      ) : projects.isError ? (
        <ErrorState error={projects.error} onRetry={() => void projects.refetch()} />
      ) : total === 0 ? (
        <section className="card empty-project" aria-labelledby="no-projects-title">
          <h2 id="no-projects-title">No projects yet</h2>
          <p>
            A project is created by the first run logged to it. With the <code>pluto</code> Python client:
          </p>
          <LoggingSnippet />
        </section>
      ) : (
        <>
          <div className="toolbar">
            <SearchBox
              value={filter}
              onChange={(q) => set('q', q)}
              label="Filter projects"
              placeholder="Filter projects"
              delayMs={120}
            />
            <Field label="Sort by" className="inline-field">
              {(id) => (
                <>
                  <select
                    id={id}
                    value={sort}
                    onChange={(e) => set('sort', e.target.value === 'activity' ? '' : e.target.value)}
                  >
                    <option value="activity">Last activity</option>
                    <option value="name">Name</option>
                    <option value="runs">Run count</option>
                  </select>
                </>
              )}
            </Field>
          </div>
          {shown.length === 0 ? (
            <Empty title={`No project matches “${filter}”`}>
              <button type="button" className="secondary" onClick={() => set('q', '')}>
                Clear filter
              </button>
            </Empty>
          ) : (
            <ProjectsTable
              org={org}
              projects={shown}
              sort={sort}
              onSort={(s) => set('sort', s === 'activity' ? '' : s)}
            />
          )}
        </>
      )}
    </div>
  );
}
