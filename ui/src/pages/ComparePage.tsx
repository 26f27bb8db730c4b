import { useMemo } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { ApiError } from '../api/client';
import { usePrefetchChartNames, useRunsDetails } from '../api/compare-queries';
import { CompareProblems } from '../compare/CompareProblems';
import { CompareRunList, type ColoredRun } from '../compare/CompareRunList';
import { CompareMedia } from '../compare/CompareMedia';
import { CompareStats } from '../compare/CompareStats';
import { ConfigDiff } from '../compare/ConfigDiff';
import { useCompareGrouping } from '../compare/CompareGroups';
import { parseRunIds } from '../compare/run-ids';
import { Empty, ErrorState, Loading } from '../components/States';
import { projectPath, projectsPath } from '../paths';
import { RunCharts } from '../charts/RunCharts';
import { runStyle } from '../charts/run-colors';
import { useHasSystemMetrics } from '../system/useHasSystemMetrics';
import '../compare/compare.css';
import '../run/page-chrome.css';

/**
 * Runs side by side (`.../compare?runs=1,2,3`, numeric ids as `comparisonUrl` gives them):
 * the runs with their colours, their charts overlaid, the statistics of a chosen metric and
 * the config keys that differ. Ids that are unknown, foreign, malformed or of another
 * project are named in a message; the rest are compared.
 */
export function ComparePage() {
  const { org = '', project = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const parsed = useMemo(() => parseRunIds(params.get('runs') ?? ''), [params]);
  usePrefetchChartNames(project, parsed.ids);
  const results = useRunsDetails(parsed.ids);

  const pending = results.some((r) => r.isPending);
  const failed = results.find((r) => r.isError && !(r.error instanceof ApiError && r.error.status === 404));
  const missing = parsed.ids.filter((_, i) => results[i]?.error instanceof ApiError && results[i].error.status === 404);
  const elsewhere = results.flatMap((r) => (r.data && r.data.projectName !== project ? [r.data] : []));
  const found = results.flatMap((r) => (r.data && r.data.projectName === project ? [r.data] : []));
  const foundKey = found.map((run) => `${run.id}:${run.status}:${run.name}:${run.updatedAt}`).join(',');
  // Keyed by what the page shows, so a poll that changes nothing keeps the same arrays (charts keep their state).
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const runs: ColoredRun[] = useMemo(() => found.map((run) => ({ run, style: runStyle(run.number) })), [foundKey]);
  const chartRuns = useMemo(
    () =>
      runs.map(({ run }) => ({
        runId: run.id,
        name: run.name,
        number: run.number,
        live: run.status === 'RUNNING',
        forkStep: run.forkStep,
      })),
    [runs],
  );

  const hasSystem = useHasSystemMetrics(runs.map(({ run }) => run));
  const grouping = useCompareGrouping(
    project,
    useMemo(() => runs.map(({ run }) => run), [runs]),
  );

  const setMetric = (name: string) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.set('metric', name);
        return next;
      },
      { replace: true },
    );

  const header = (
    <>
      <nav className="breadcrumbs" aria-label="Breadcrumb">
        <Link to={projectsPath(org)}>Projects</Link>
        <span aria-hidden="true"> / </span>
        <Link to={projectPath(org, project)}>{project}</Link>
        <span aria-hidden="true"> / </span>
        <span aria-current="page">Compare</span>
      </nav>
      <h1>Compare runs</h1>
    </>
  );

  if (parsed.ids.length === 0 && parsed.invalid.length === 0) {
    return (
      <div className="compare-page">
        {header}
        <Empty title="No runs chosen">
          Select runs in <Link to={projectPath(org, project)}>the runs table of {project}</Link> and open them in
          compare.
        </Empty>
      </div>
    );
  }
  return (
    <div className="compare-page">
      {header}
      <CompareProblems
        invalid={parsed.invalid}
        missing={missing}
        elsewhere={elsewhere}
        dropped={parsed.dropped}
        project={project}
      />
      {failed ? (
        <ErrorState error={failed.error} onRetry={() => void failed.refetch()} />
      ) : pending ? (
        <Loading label="Loading runs…" />
      ) : runs.length === 0 ? (
        <Empty title="Nothing to compare">
          None of the chosen runs is in {project}. <Link to={projectPath(org, project)}>Back to its runs</Link>
        </Empty>
      ) : (
        <>
          <CompareRunList runs={runs} />
          <section aria-labelledby={grouping.grouped ? 'compare-group-charts-title' : 'compare-charts-title'}>
            <div className="compare-charts-bar">
              {!grouping.grouped && <h2 id="compare-charts-title">Charts</h2>}
              {grouping.control}
            </div>
            {grouping.grouped ? grouping.charts : <RunCharts runs={chartRuns} />}
          </section>
          {hasSystem && (
            <section aria-labelledby="compare-system-title">
              <h2 id="compare-system-title">System</h2>
              <RunCharts runs={chartRuns} kind="system" legend={false} paramPrefix="sys" />
            </section>
          )}
          <section aria-labelledby="compare-stats-title">
            <h2 id="compare-stats-title">Statistics</h2>
            <CompareStats projectName={project} runs={runs} metric={params.get('metric')} onMetric={setMetric} />
          </section>
          <section aria-labelledby="compare-config-title">
            <h2 id="compare-config-title">Config</h2>
            <ConfigDiff runs={runs} />
          </section>
          <CompareMedia runs={runs} />
        </>
      )}
    </div>
  );
}
