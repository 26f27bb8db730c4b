import { useCallback, useMemo } from 'react';
import type { RunGroups } from '@server/api/schemas/groups';
import { type GroupParams, useRunGroups } from '../api/group-queries';
import { TALL_HEIGHT } from '../charts/ChartGroup';
import { ChartSettingsDialog, type PanelActions } from '../charts/ChartSettingsDialog';
import { PLOT_HEIGHT } from '../charts/MetricChart';
import { movePanel, type PanelLayout, removePanel, updatePanel } from '../charts/panel-layout';
import { runStyle } from '../charts/run-colors';
import { useChartSettings } from '../charts/useChartSettings';
import { usePanelLayout } from '../charts/usePanelLayout';
import { ErrorState, Loading } from '../components/States';
import { BAND_KINDS, BAND_LABELS, type BandKind } from './group-by';
import { groupId, groupLabel, groupLegend } from './group-label';
import { GroupChart } from './GroupChart';
import { type GroupChartPanel, groupChartPanels } from './group-panels';
import './groups.css';

/** The most metrics the grouped charts draw (the first in name order). */
const MAX_GROUP_CHARTS = 24;

/** The most groups the legend names. */
const MAX_LEGEND = 100;

/** The legend of the groups: a swatch and "lr=0.01, adamw · 4 runs" each. */
function GroupLegend({ groups, colorOf }: { groups: RunGroups; colorOf: (id: string) => string }) {
  return (
    <ul className="group-legend" aria-label="Groups">
      {groups.groups.slice(0, MAX_LEGEND).map((g) => {
        const id = groupId(groups.groupBy, g.key);
        return (
          <li key={id}>
            <span className="group-swatch" style={{ backgroundColor: colorOf(id) }} aria-hidden="true" />
            {groupLegend(groupLabel(groups.groupBy, g.key), g.runCount)}
          </li>
        );
      })}
      {groups.groups.length > MAX_LEGEND && (
        <li className="muted">+{(groups.groups.length - MAX_LEGEND).toLocaleString('en-US')} more groups</li>
      )}
    </ul>
  );
}

/** Why a grouped chart's x axis is step whatever its panel says. */
const X_LOCKED = 'Grouped charts are drawn against step: each point is a bucket of steps over the group’s runs.';

/**
 * The charts of grouped runs: a Band choice, the groups' legend and one chart per metric
 * (GroupChart) as the runs' panel layout has them (group-panels.ts), each group in the colour of its place in the groups' order (runStyle of
 * 1, 2, 3, … so the first groups get the palette's first colours).
 *
 * With a layout and somewhere to hand its changes (`onLayoutChange`), each chart has the runs' charts' "Chart settings" dialog, which
 * changes the same panel: its log scale, y range, smoothing, size, order and removal apply
 * here and to the runs' charts alike; its x axis stays step (the dialog says why).
 */
export function GroupCharts({
  params,
  metricNames,
  band,
  onBand,
  headingId,
  layout,
  onLayoutChange,
}: {
  params: GroupParams;
  metricNames: readonly string[];
  /** The runs' charts' panel layout: its removed charts, order, log scales and y ranges hold here too. */
  layout?: PanelLayout;
  /** Takes a changed layout (default: the page's MetricLayoutChange, if any). */
  onLayoutChange?: (layout: PanelLayout) => void;
  band: BandKind;
  onBand: (band: BandKind) => void;
  /** The id of the section heading this renders. */
  headingId: string;
}) {
  const groups = useRunGroups(params, []);
  // The page's step zoom (`zoom=`), as the ungrouped charts keep it.
  const { settings, setZoom } = useChartSettings();
  const order = useMemo(() => {
    const ids = new Map<string, number>();
    groups.data?.groups.forEach((g, i) => ids.set(groupId(groups.data.groupBy, g.key), i));
    return ids;
  }, [groups.data]);
  const colorOf = useCallback((id: string) => runStyle((order.get(id) ?? order.size) + 1).color, [order]);
  const panels = useMemo(() => groupChartPanels(layout, metricNames, settings), [layout, metricNames, settings]);
  const shown = panels.slice(0, MAX_GROUP_CHARTS);
  const owner = onLayoutChange;
  // Changes compose on the latest layout (several before a render), as the runs' charts do.
  const { change } = usePanelLayout(null, { layout, onLayoutChange: owner });
  const editable = layout !== undefined && owner !== undefined;
  const actionsOf = (item: GroupChartPanel, id: string): PanelActions => {
    const at = item.sectionIds.indexOf(id);
    return {
      update: (patch) => change((l) => updatePanel(l, id, patch)),
      move: (delta) => change((l) => movePanel(l, item.sectionIds, id, delta)),
      remove: () => change((l) => removePanel(l, id)),
      first: at <= 0,
      last: at === item.sectionIds.length - 1,
    };
  };
  return (
    <>
      <div className="group-charts-head workspace-charts-head">
        <h2 id={headingId}>Charts by group</h2>
        <label>
          Band{' '}
          <select value={band} onChange={(e) => onBand(e.target.value as BandKind)}>
            {BAND_KINDS.map((k) => (
              <option key={k} value={k}>
                {BAND_LABELS[k]}
              </option>
            ))}
          </select>
        </label>
        {panels.length > shown.length && (
          <p className="muted" role="status">
            The first {shown.length} of {panels.length} metrics
          </p>
        )}
      </div>
      {groups.isPending ? (
        <Loading label="Grouping runs…" />
      ) : groups.isError ? (
        <ErrorState error={groups.error} onRetry={() => void groups.refetch()} />
      ) : (
        <>
          <GroupLegend groups={groups.data} colorOf={colorOf} />
          {shown.length === 0 ? (
            <p className="muted">No metrics logged yet</p>
          ) : (
            <div className="chart-grid">
              {shown.map((item) => {
                const { chart, panel } = item;
                return (
                  <div
                    key={chart.logName}
                    className={panel?.width === 'full' ? 'chart-cell chart-cell-full' : 'chart-cell'}
                  >
                    <GroupChart
                      params={params}
                      panel={chart}
                      band={band}
                      colorOf={colorOf}
                      zoom={settings.zoom}
                      onZoom={setZoom}
                      height={panel?.height === 'tall' ? TALL_HEIGHT : PLOT_HEIGHT}
                      renderSettings={
                        editable && panel
                          ? (close) => (
                              <ChartSettingsDialog
                                panel={panel}
                                names={metricNames}
                                page={{ ...settings, xMode: 'step' }}
                                actions={actionsOf(item, panel.id)}
                                onClose={close}
                                xLocked={X_LOCKED}
                              />
                            )
                          : undefined
                      }
                    />
                  </div>
                );
              })}
            </div>
          )}
        </>
      )}
    </>
  );
}
