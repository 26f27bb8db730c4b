import './manage.css';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Link, Navigate, useLocation, useParams } from 'react-router';
import { useRenamedProject } from '../api/run-admin-queries';
import { useProjects } from '../api/project-queries';
import { useMetricNames } from '../api/metric-queries';
import { runListPageQuery } from '../api/run-list-queries';
import { columnMetrics } from '../runs-table/columns';
import { useSession } from '../api/session';
import { projectPath, projectSettingsPath, projectsPath, trashPath } from '../paths';
import { useAdminRole } from '../people/useAdminRole';
import { AlertRulesEditor } from '../projects/AlertRulesEditor';
import { ForeignOrganization } from '../projects/ForeignOrganization';
import { LoggingSnippet } from '../projects/LoggingSnippet';
import { Leaderboard } from '../runs-table/Leaderboard';
import { runListParams, RunsTableView } from '../runs-table/RunsTableView';
import { useRunsView } from '../runs-table/useRunsView';
import { Loading } from '../components/States';
import { useWorkspace } from '../workspace/useWorkspace';
import { useWorkspaceViews } from '../workspace/useWorkspaceViews';
import { ViewsControl } from '../workspace/ViewsControl';
import '../runs-table/toolbar.css';
import '../workspace/workspace.css';
import './runs-page.css';

/**
 * A project's runs: the workspace (the table to filter, sort, select and compare, with the
 * charts of its first rows beside it) or the leaderboard, and its saved views (the default
 * one applied when the page opens on the project's bare URL).
 */
export function RunsPage() {
  const { org = '', project = '' } = useParams();
  const session = useSession();
  const { admin } = useAdminRole();
  const own = session.data?.organization.slug ?? org;
  const { view, update } = useRunsView();
  const { state, setHidden, setRunHidden, setHighlight, setLayout } = useWorkspace(org, project);
  const actions = useMemo(
    () => ({ setHidden, setRunHidden, setHighlight, setLayout }),
    [setHidden, setRunHidden, setHighlight, setLayout],
  );
  const metricNames = useMetricNames({ projectName: project, limit: 2000, staleTime: 30_000 });
  // As the page opens, beside the project list (which the saved views wait for: a project not
  // logged to yet has none and answers 404): the URL's first rows, the rows shown unless a
  // default view applies, so they do not wait for the views' answer.
  const client = useQueryClient();
  useEffect(() => {
    if (own !== org || view.view !== 'table') return;
    void client.prefetchQuery(runListPageQuery(runListParams(project, view, columnMetrics(view.columns)), 0));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per project as it opens
  }, [client, own, org, project]);
  const projects = useProjects();
  const known = projects.data?.some((p) => p.name === project);
  // An old name of a renamed project leads to its new name.
  const renamed = useRenamedProject(project, known === false);
  const location = useLocation();
  const [rulesOpen, setRulesOpen] = useState(false);
  const views = useWorkspaceViews(
    org,
    project,
    own !== org || projects.isError ? false : known,
    state.layouts,
    setLayout,
  );
  if (own !== org) return <ForeignOrganization org={org} own={own} />;
  if (renamed.data) return <Navigate to={projectPath(org, renamed.data) + location.search} replace />;

  const empty = (
    <section className="card empty-project" aria-labelledby="empty-project-title">
      <h2 id="empty-project-title">
        {known === false ? `There is no project named “${project}” yet` : `No runs in ${project} yet`}
      </h2>
      <p>
        {known === false
          ? 'It is created by the first run logged to it. '
          : 'Runs appear here as soon as a training script starts one. '}
        To log to it with the <code>pluto</code> Python client:
      </p>
      <LoggingSnippet project={project} />
    </section>
  );
  const names = metricNames.data ?? [];

  return (
    <div className="runs-page">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to={projectsPath(org)}>Projects</Link>
        <span aria-hidden="true"> / </span>
        <span aria-current="page">{project}</span>
      </nav>
      <div className="runs-heading">
        <h1>{project}</h1>
        {known && <ViewsControl project={project} views={views} />}
        {known && (
          <nav className="project-links" aria-label="Project">
            <Link to={trashPath(org, project)}>Trash</Link>
            {admin && <Link to={projectSettingsPath(org, project)}>Settings</Link>}
          </nav>
        )}
        <div className="view-switch" role="group" aria-label="View">
          <button
            type="button"
            className={view.view === 'table' ? 'active' : 'secondary'}
            aria-pressed={view.view === 'table'}
            onClick={() => update({ view: 'table' }, { push: true })}
          >
            Runs
          </button>
          <button
            type="button"
            className={view.view === 'leaderboard' ? 'active' : 'secondary'}
            aria-pressed={view.view === 'leaderboard'}
            onClick={() => update({ view: 'leaderboard' }, { push: true })}
          >
            Leaderboard
          </button>
        </div>
        {known && (
          <button
            type="button"
            className="secondary"
            aria-expanded={rulesOpen}
            onClick={() => setRulesOpen(!rulesOpen)}
          >
            Alert rules
          </button>
        )}
      </div>
      {rulesOpen && known && <AlertRulesEditor project={project} />}
      {views.opening ? (
        <Loading label="Opening the project’s default view…" />
      ) : view.view === 'leaderboard' ? (
        <Leaderboard
          org={org}
          project={project}
          metricNames={names}
          metricsLoading={metricNames.isPending}
          view={view}
          update={update}
        />
      ) : (
        <RunsTableView
          key={project}
          org={org}
          project={project}
          view={view}
          update={update}
          metricNames={names}
          metricsLoading={metricNames.isPending}
          empty={empty}
          workspace={{ state, actions }}
        />
      )}
    </div>
  );
}
