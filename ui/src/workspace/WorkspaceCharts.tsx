import { useMemo } from 'react';
import type { RunRow } from '@server/api/schemas/runs';
import { useMetricNames } from '../api/metric-queries';
import { type ChartRun, RunCharts } from '../charts/RunCharts';
import { ErrorState, Loading } from '../components/States';
import { isSystemName } from '../system/system-names';
import type { WorkspaceActions } from './useWorkspace';
import { chartedNote, type WorkspaceState } from './workspace-state';

/**
 * The charts of the runs the table shows (its first rows, in its order): one request for
 * their metric names, then RunCharts with those names (no per-run lookups), `sys/` series in
 * their own System section against time. Hidden runs, the highlight and the panel layouts
 * are the workspace's. `systemOnly` (beside the grouped charts, which draw no `sys/` series)
 * draws the System section alone.
 */
export function WorkspaceCharts({
  project,
  rows,
  total,
  state,
  actions,
  systemOnly = false,
}: {
  project: string;
  /** The charted rows (at most MAX_CHARTED_RUNS), in the table's order. */
  rows: readonly RunRow[];
  /** How many runs match. */
  total: number;
  state: WorkspaceState;
  actions: WorkspaceActions;
  systemOnly?: boolean;
}) {
  const rowsKey = rows.map((r) => `${r.id}:${r.name}:${r.status}:${r.number}`).join(',');
  // Every RUNNING run polls: a chart asks for its live runs' new points in one request or a few.
  const runs = useMemo<ChartRun[]>(
    () =>
      rows.map((r) => ({
        runId: r.id,
        name: r.name,
        number: r.number,
        live: r.status === 'RUNNING',
        forkStep: r.forkStep,
        createdAt: r.createdAt,
      })),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- rowsKey stands for rows
    [rowsKey],
  );
  // Sorted: a new sort of the same runs asks nothing again.
  const ids = useMemo(() => runs.map((r) => r.runId).sort((a, b) => a - b), [runs]);
  const names = useMetricNames({
    projectName: project,
    runIds: ids,
    limit: 1000,
    enabled: ids.length > 0,
    live: runs.some((r) => r.live),
  });
  const { metricNames, systemNames } = useMemo(() => {
    const all = names.data ?? [];
    return { metricNames: all.filter((n) => !isSystemName(n)), systemNames: all.filter(isSystemName) };
  }, [names.data]);
  const hidden = useMemo(() => new Set(state.hidden), [state.hidden]);
  const setHidden = (next: ReadonlySet<number>) => actions.setHidden([...next]);
  const note = chartedNote(rows.length, total);

  const common = {
    runs,
    hiddenRunIds: hidden,
    onHiddenChange: setHidden,
    highlightRunId: state.highlight,
    onHighlight: actions.setHighlight,
  };
  const system = systemNames.length > 0 && (
    <section aria-labelledby="workspace-system-title">
      <h2 id="workspace-system-title">System</h2>
      <RunCharts
        {...common}
        names={systemNames}
        kind="system"
        legend={false}
        paramPrefix="sys"
        layout={state.layouts.system}
        onLayoutChange={(layout) => actions.setLayout('system', layout)}
      />
    </section>
  );
  if (systemOnly)
    return names.isError ? <ErrorState error={names.error} onRetry={() => void names.refetch()} /> : system;
  return (
    <>
      <div className="workspace-charts-head">
        <h2 id="workspace-charts-title">Charts</h2>
        {note && (
          <p className="muted workspace-note" role="status">
            {note}
          </p>
        )}
      </div>
      {names.isPending && ids.length > 0 ? (
        <Loading label="Loading charts…" />
      ) : names.isError ? (
        <ErrorState error={names.error} onRetry={() => void names.refetch()} />
      ) : (
        <>
          <RunCharts
            {...common}
            names={metricNames}
            legend
            layout={state.layouts.metrics}
            onLayoutChange={(layout) => actions.setLayout('metrics', layout)}
          />
          {system}
        </>
      )}
    </>
  );
}
