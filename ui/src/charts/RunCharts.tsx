import { useCallback, useEffect, useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { chartNamesRequest, useChartRunDetails, useMetricNames } from '../api/metric-queries';
import { Empty, ErrorState, Loading } from '../components/States';
import { ChartGroup } from './ChartGroup';
import { ChartToolbar } from './ChartToolbar';
import type { PanelActions } from './ChartSettingsDialog';
import {
  addPanel,
  byCodePoint,
  CUSTOM_SECTION,
  movePanel,
  removePanel,
  resolveSections,
  restoreRemoved,
  toggleSection,
  updatePanel,
  type PanelLayout,
  type PanelSection,
  type ResolvedPanel,
} from './panel-layout';
import { layoutStorageKey, usePanelLayout } from './usePanelLayout';
import { isSystemName } from '../system/system-names';
import { runStyle } from './run-colors';
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
  /** The run's number in its project (`RunDetails.number`): its colour and line style (run-colors.ts). */
  number: number;
  /** True while the run is RUNNING: new metric names and points are polled every ~3 s. */
  live?: boolean;
  /** For a fork: steps <= forkStep are inherited from the parent. */
  forkStep?: number | null;
  /** The run's creation time (zero of relative time); absent: from its details. */
  createdAt?: string;
}

/** Which names a set of charts draws: every name but the system ones, or those only. */
export type ChartKind = 'metrics' | 'system';

/**
 * The charts of one or more runs: a toolbar (filter, smoothing, x axis, log scale, zoom), a
 * legend that hides and shows runs when there are several, and one chart per metric grouped
 * by logGroup in collapsible sections. Charts load as they come near the viewport. Page state
 * lives in the URL (see useChartSettings). Names come from the runs' details and metric names
 * (a fork's inherited ones too).
 *
 * `kind` 'metrics' (default) charts every name but `sys/` ones, against step unless the URL
 * says otherwise; 'system' charts the `sys/` names only (sampled by the clock, not per step),
 * against relative time by default, where the page's step zoom does not apply and a drag
 * zooms that chart's time axis alone (double-click resets). `legend` shows the run legend
 * (default: with several runs); `paramPrefix` names this set's URL parameters when a page has
 * two (useChartSettings). `onPointClick` receives the point nearest a single click on a chart.
 *
 * The panels (added ones, each chart's own settings, sizes, order, removed charts, collapsed
 * sections) are one PanelLayout (panel-layout.ts): the parent's when it passes `layout`
 * (and `onLayoutChange` to hear of changes), else kept in local storage per organization,
 * project and kind (usePanelLayout). The toolbar's settings stay page-wide defaults.
 */
export function RunCharts(props: {
  runs: ChartRun[];
  kind?: ChartKind;
  legend?: boolean;
  paramPrefix?: string;
  onPointClick?: (point: PickedPoint) => void;
  layout?: PanelLayout;
  onLayoutChange?: (layout: PanelLayout) => void;
  /** The metric names to chart (sorted or not): no per-run details or names are asked for. */
  names?: readonly string[];
  /** Runs hidden from the charts, and their setter (default: the URL's `hide`). */
  hiddenRunIds?: ReadonlySet<number>;
  onHiddenChange?: (ids: ReadonlySet<number>) => void;
  /** The run drawn thick and in front, the others dimmed; a legend entry hovered reports its run. */
  highlightRunId?: number | null;
  onHighlight?: (runId: number | null) => void;
}) {
  const { runs, kind = 'metrics', paramPrefix, onPointClick, highlightRunId, onHighlight } = props;
  const system = kind === 'system';
  const chartSettings = useChartSettings(system ? 'relative' : 'step', paramPrefix);
  const { setZoom, setSmoothing, setXMode, setLogScale, setFilter } = chartSettings;
  const setHidden = props.onHiddenChange ?? chartSettings.setHidden;
  const hidden = props.hiddenRunIds ?? chartSettings.settings.hidden;
  // A step window means nothing to clock-sampled series.
  const settings = useMemo(
    () => (system ? { ...chartSettings.settings, zoom: null } : chartSettings.settings),
    [system, chartSettings.settings],
  );
  // Given names: the caller knows them (and each run's start), so nothing per run is asked for.
  const given = props.names !== undefined;
  const details = useChartRunDetails(given ? [] : runs.map((r) => r.runId));
  const params = useParams();
  const project = params.project ?? details[0]?.data?.projectName;
  const { layout, change } = usePanelLayout(
    project === undefined ? null : layoutStorageKey(params.org ?? '', project, kind),
    { layout: props.layout, onLayoutChange: props.onLayoutChange },
  );
  // A panel just added opens its settings as it first shows (not again when its section reopens).
  const [added, setAdded] = useState<string | null>(null);
  useEffect(() => {
    if (added !== null) setAdded(null);
  }, [added]);
  // One request for every run's names (their lineages' too), asked as soon as the project is known.
  const names = useMetricNames(chartNamesRequest(project, runs, !given));

  // Keyed on content: a parent may pass a fresh array each render.
  const runsKey = runs
    .map((r) => `${r.runId}\u0000${r.name}\u0000${r.number}\u0000${r.live}\u0000${r.forkStep}\u0000${r.createdAt}`)
    .join('\u0001');
  const startsKey = details.map((d) => `${d.data?.createdAt ?? ''}/${d.data?.forkStep ?? ''}`).join(',');
  const allRuns = useMemo<ResolvedRun[]>(
    () =>
      runs.map((r, i) => {
        const created = r.createdAt ?? details[i]?.data?.createdAt;
        const style = runStyle(r.number);
        return {
          runId: r.runId,
          name: r.name,
          color: style.color,
          dash: style.dash,
          live: r.live === true,
          forkStep: r.forkStep ?? details[i]?.data?.forkStep ?? null,
          startMs: created ? Date.parse(created) : null,
        };
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runsKey and startsKey stand for runs and details
    [runsKey, startsKey],
  );
  const hiddenKey = [...hidden].join(',');
  const shownRuns = useMemo(
    () => allRuns.filter((r) => !hidden.has(r.runId)),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- hiddenKey stands for hidden
    [allRuns, hiddenKey],
  );

  // The run details' METRIC log names come first (no extra round trip); metric-names adds
  // what a fork inherits from its parents.
  const namesKey = JSON.stringify([
    ...(props.names ?? []),
    ...details.flatMap((d) => (d.data?.logNames ?? []).filter((n) => n.logType === 'METRIC').map((n) => n.logName)),
    ...(names.data ?? []),
  ]);
  const everyName = useMemo(() => [...new Set(JSON.parse(namesKey) as string[])].sort(byCodePoint), [namesKey]);
  const allNames = useMemo(() => everyName.filter((name) => isSystemName(name) === system), [everyName, system]);

  const sections = useMemo(
    () => resolveSections(layout, allNames, settings.filter),
    [layout, allNames, settings.filter],
  );
  const totalCount = useMemo(
    () => resolveSections(layout, allNames).reduce((n, s) => n + s.panels.length, 0),
    [layout, allNames],
  );
  const shownCount = sections.reduce((n, s) => n + s.panels.length, 0);
  const actionsOf = useCallback(
    (section: PanelSection) =>
      (panel: ResolvedPanel, index: number): PanelActions => ({
        update: (patch) => change((l) => updatePanel(l, panel.id, patch)),
        move: (delta) =>
          change((l) =>
            movePanel(
              l,
              section.panels.map((p) => p.id),
              panel.id,
              delta,
            ),
          ),
        remove: () => change((l) => removePanel(l, panel.id)),
        first: index === 0,
        last: index === section.panels.length - 1,
      }),
    [change],
  );

  const namesLoading = !given && allNames.length === 0 && (details.some((d) => d.isPending) || names.isPending);
  const failures = [...details, names].filter((q) => q.isError);
  const allFailed = allNames.length === 0 && failures.length > 0 && !namesLoading;

  let body;
  if (runs.length === 0) body = <Empty title="No runs to chart" />;
  else if (namesLoading) body = <Loading label="Loading charts…" />;
  else if (allFailed)
    body = <ErrorState error={failures[0]!.error} onRetry={() => failures.forEach((q) => void q.refetch())} />;
  else if (allNames.length === 0 && totalCount === 0)
    body = (
      <Empty title={system ? 'No system metrics' : 'No metrics logged yet'}>
        <p className="muted">
          {system
            ? 'No numeric sys/ metrics have been logged.'
            : everyName.length > 0
              ? 'Only system metrics (sys/) so far: they are charted under System.'
              : runs.some((r) => r.live)
                ? 'Charts appear here as soon as the run logs a metric.'
                : 'This run has no numeric metrics.'}
        </p>
      </Empty>
    );
  else if (shownCount === 0) body = <Empty title="No charts match the filter" />;
  else
    body = sections.map((section) => (
      <ChartGroup
        key={section.key}
        section={section}
        names={allNames}
        runs={shownRuns}
        settings={settings}
        onToggle={() => change((l) => toggleSection(l, section.key))}
        actionsOf={actionsOf(section)}
        openSettingsOf={added}
        onZoom={setZoom}
        timeZoom={system}
        onPointClick={onPointClick}
        highlightRunId={highlightRunId}
      />
    ));

  return (
    <div className="run-charts">
      <ChartToolbar
        label={system ? 'System chart controls' : undefined}
        settings={settings}
        shown={shownCount}
        total={totalCount}
        onAddPanel={() =>
          change((l) => {
            const next = addPanel(l);
            setAdded(next.id);
            return next.layout.collapsed.includes(CUSTOM_SECTION)
              ? toggleSection(next.layout, CUSTOM_SECTION)
              : next.layout;
          })
        }
        removed={layout.removed.length}
        onRestore={() => change(restoreRemoved)}
        setFilter={setFilter}
        setSmoothing={setSmoothing}
        setXMode={setXMode}
        setLogScale={setLogScale}
        setZoom={setZoom}
      />
      {(props.legend ?? runs.length > 1) && (
        <RunLegend
          runs={allRuns}
          hidden={hidden}
          setHidden={setHidden}
          highlighted={highlightRunId}
          onHighlight={onHighlight}
        />
      )}
      {failures.length > 0 && !allFailed && (
        <p className="chart-warning" role="alert">
          Some runs' metric names could not be loaded: {failures[0]!.error?.message}
        </p>
      )}
      {body}
    </div>
  );
}
