import { useMemo, useState } from 'react';
import { useChartRunDetails, useRunMetricNames } from '../api/metric-queries';
import { Empty, ErrorState, Loading } from '../components/States';
import { ChartGroup } from './ChartGroup';
import { ChartToolbar } from './ChartToolbar';
import { runColor } from './chart-theme';
import type { XMode } from './chart-model';
import type { PickedPoint } from './chart-point-click';
import type { ResolvedRun } from './MetricChart';
import { RunLegend } from './RunLegend';
import { useChartSettings } from './useChartSettings';
import './charts.css';

/** A run to chart: one run on the run page, several overlaid on the compare page. */
export interface ChartRun {
  /** Numeric run id. */
  runId: number;
  /** Shown in legends and tooltips. */
  name: string;
  /** A CSS colour; a palette colour per run index otherwise. */
  color?: string;
  /** True while the run is RUNNING: new metric names and points are polled every ~3 s. */
  live?: boolean;
  /** For a fork: steps <= forkStep are inherited from the parent. */
  forkStep?: number | null;
}

/** The group of a log name: the part before its last `/` (src/domain/log-group.ts). */
const logGroupOf = (logName: string): string => {
  const i = logName.lastIndexOf('/');
  return i < 0 ? '' : logName.slice(0, i);
};

/** Code-point order, as the API sorts names. */
const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The charts of one or more runs: a toolbar (filter, smoothing, x axis, log scale, zoom), a
 * legend that hides and shows runs when there are several, and one chart per metric grouped
 * by logGroup in collapsible sections. Charts load as they come near the viewport. Page state
 * lives in the URL (see useChartSettings).
 *
 * `logNames` charts exactly those names; `excludePrefix` leaves out the names starting with it
 * (the run page's System tab charts `sys/`); `defaultX` is the x axis when the URL has no `x`;
 * `onPointClick` receives the point nearest a single click on a chart.
 */
export function RunCharts(props: {
  runs: ChartRun[];
  logNames?: string[];
  excludePrefix?: string;
  defaultX?: XMode;
  onPointClick?: (point: PickedPoint) => void;
}) {
  const { runs, logNames, excludePrefix, defaultX, onPointClick } = props;
  const { settings, setZoom, setSmoothing, setXMode, setLogScale, setHidden, setFilter } = useChartSettings(defaultX);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());

  const details = useChartRunDetails(runs.map((r) => r.runId));
  const names = useRunMetricNames(
    logNames
      ? []
      : runs.map((r, i) => ({ runId: r.runId, projectName: details[i]?.data?.projectName, live: r.live === true })),
  );

  // Keyed on content: a parent may pass a fresh array each render.
  const runsKey = runs
    .map((r) => `${r.runId}\u0000${r.name}\u0000${r.color}\u0000${r.live}\u0000${r.forkStep}`)
    .join('\u0001');
  const startsKey = details.map((d) => `${d.data?.createdAt ?? ''}/${d.data?.forkStep ?? ''}`).join(',');
  const allRuns = useMemo<ResolvedRun[]>(
    () =>
      runs.map((r, i) => {
        const created = details[i]?.data?.createdAt;
        return {
          runId: r.runId,
          name: r.name,
          color: runColor(i, r.color),
          live: r.live === true,
          forkStep: r.forkStep ?? details[i]?.data?.forkStep ?? null,
          startMs: created ? Date.parse(created) : null,
        };
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runsKey and startsKey stand for runs and details
    [runsKey, startsKey],
  );
  const hiddenKey = [...settings.hidden].join(',');
  const shownRuns = useMemo(
    () => allRuns.filter((r) => !settings.hidden.has(r.runId)),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- hiddenKey stands for settings.hidden
    [allRuns, hiddenKey],
  );

  // The run details' METRIC log names come first (no extra round trip); metric-names adds
  // what a fork inherits from its parents.
  const namesKey = JSON.stringify(
    logNames ?? [
      ...details.flatMap((d) => (d.data?.logNames ?? []).filter((n) => n.logType === 'METRIC').map((n) => n.logName)),
      ...names.flatMap((n) => n.data ?? []),
    ],
  );
  const allNames = useMemo(
    () =>
      [...new Set(JSON.parse(namesKey) as string[])]
        .filter((name) => !excludePrefix || !name.startsWith(excludePrefix))
        .sort(byCodePoint),
    [namesKey, excludePrefix],
  );

  const filter = settings.filter.trim().toLowerCase();
  const groups = useMemo(() => {
    const map = new Map<string, string[]>();
    for (const name of allNames) {
      if (filter && !name.toLowerCase().includes(filter)) continue;
      const group = logGroupOf(name);
      const list = map.get(group);
      if (list) list.push(name);
      else map.set(group, [name]);
    }
    return [...map.entries()].sort((a, b) => byCodePoint(a[0], b[0]));
  }, [allNames, filter]);
  const shownCount = groups.reduce((n, [, list]) => n + list.length, 0);

  const namesLoading =
    !logNames && allNames.length === 0 && (details.some((d) => d.isPending) || names.some((n) => n.isPending));
  const failures = logNames ? [] : [...details, ...names].filter((q) => q.isError);
  const allFailed = !logNames && allNames.length === 0 && failures.length > 0 && !namesLoading;

  let body;
  if (runs.length === 0) body = <Empty title="No runs to chart" />;
  else if (namesLoading) body = <Loading label="Loading charts…" />;
  else if (allFailed)
    body = <ErrorState error={failures[0]!.error} onRetry={() => failures.forEach((q) => void q.refetch())} />;
  else if (allNames.length === 0)
    body = (
      <Empty title="No metrics logged yet">
        <p className="muted">
          {runs.some((r) => r.live)
            ? 'Charts appear here as soon as the run logs a metric.'
            : 'This run has no numeric metrics.'}
        </p>
      </Empty>
    );
  else if (shownCount === 0) body = <Empty title="No charts match the filter" />;
  else
    body = groups.map(([group, list]) => (
      <ChartGroup
        key={group}
        group={group}
        names={list}
        runs={shownRuns}
        settings={settings}
        collapsed={collapsed.has(group)}
        onToggle={() =>
          setCollapsed((prev) => {
            const next = new Set(prev);
            if (next.has(group)) next.delete(group);
            else next.add(group);
            return next;
          })
        }
        onZoom={setZoom}
        onPointClick={onPointClick}
      />
    ));

  return (
    <div className="run-charts">
      <ChartToolbar
        settings={settings}
        shown={shownCount}
        total={allNames.length}
        setFilter={setFilter}
        setSmoothing={setSmoothing}
        setXMode={setXMode}
        setLogScale={setLogScale}
        setZoom={setZoom}
      />
      {runs.length > 1 && <RunLegend runs={allRuns} hidden={settings.hidden} setHidden={setHidden} />}
      {failures.length > 0 && !allFailed && (
        <p className="chart-warning" role="alert">
          Some runs' metric names could not be loaded: {failures[0]!.error?.message}
        </p>
      )}
      {body}
    </div>
  );
}
