/**
 * Which grouped charts to draw: the workspace's panel layout (panel-layout.ts) decides, as it
 * does for the runs' charts, so a chart removed or moved there stays so when the runs are
 * grouped; each chart keeps its panel's log scale, y range and smoothing (of the group's
 * mean and band edges). A time or metric x axis means nothing to bands over step buckets:
 * the settings dialog says so (GroupCharts).
 */
import { type PanelLayout, type ResolvedPanel, resolveSections } from '../charts/panel-layout';

/** One grouped chart: a metric and the y axis its panel asks for. */
export interface GroupPanel {
  logName: string;
  logScale: boolean;
  /** EMA weight of the mean and band edges; absent: none. */
  smoothing?: number;
  yMin?: number;
  yMax?: number;
}

/** A grouped chart with the layout panel it is drawn from (which its settings change). */
export interface GroupChartPanel {
  chart: GroupPanel;
  /** Absent without a layout. */
  panel?: ResolvedPanel;
  /** The ids of the panels of its panel's section, in order (for moving it). */
  sectionIds: readonly string[];
}

/**
 * The charts for metric `names` under `layout`, in its sections' order (collapsed ones too:
 * the grouped charts have no sections to open), each metric once, where it is first drawn;
 * `page` holds the page's default log scale and smoothing. Without a layout, one chart per
 * name in the order given.
 */
export function groupChartPanels(
  layout: PanelLayout | undefined,
  names: readonly string[],
  page: { logScale: boolean; smoothing: number },
): GroupChartPanel[] {
  const pageSmoothing = page.smoothing > 0 ? { smoothing: page.smoothing } : {};
  if (!layout)
    return names.map((logName) => ({ chart: { logName, logScale: page.logScale, ...pageSmoothing }, sectionIds: [] }));
  const seen = new Set<string>();
  const out: GroupChartPanel[] = [];
  for (const section of resolveSections(layout, names)) {
    const sectionIds = section.panels.map((p) => p.id);
    for (const panel of section.panels) {
      const { settings } = panel;
      const smoothing = settings.smoothing ?? page.smoothing;
      for (const logName of panel.metrics) {
        if (seen.has(logName)) continue;
        seen.add(logName);
        const chart: GroupPanel = {
          logName,
          logScale: settings.logScale ?? page.logScale,
          ...(smoothing > 0 ? { smoothing } : {}),
          ...(settings.yMin !== undefined ? { yMin: settings.yMin } : {}),
          ...(settings.yMax !== undefined ? { yMax: settings.yMax } : {}),
        };
        out.push({ chart, panel, sectionIds });
      }
    }
  }
  return out;
}

/** The charts alone (groupChartPanels with no page smoothing): `logScale` is the page's default. */
export function groupPanels(
  layout: PanelLayout | undefined,
  names: readonly string[],
  logScale: boolean,
): GroupPanel[] {
  return groupChartPanels(layout, names, { logScale, smoothing: 0 }).map((p) => p.chart);
}
