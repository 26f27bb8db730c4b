/**
 * Which grouped charts to draw: the workspace's panel layout (panel-layout.ts) decides, as it
 * does for the runs' charts, so a chart removed or moved there stays so when the runs are
 * grouped; each chart keeps its panel's log scale and y range (smoothing and a time or metric
 * x axis mean nothing to bands over step buckets).
 */
import { type PanelLayout, resolveSections } from '../charts/panel-layout';

/** One grouped chart: a metric and the y axis its panel asks for. */
export interface GroupPanel {
  logName: string;
  logScale: boolean;
  yMin?: number;
  yMax?: number;
}

/**
 * The charts for metric `names` under `layout`, in its sections' order (collapsed ones too:
 * the grouped charts have no sections to open), each metric once, where it is first drawn;
 * `logScale` is the page's default. Without a layout, one chart per name in the order given.
 */
export function groupPanels(
  layout: PanelLayout | undefined,
  names: readonly string[],
  logScale: boolean,
): GroupPanel[] {
  if (!layout) return names.map((logName) => ({ logName, logScale }));
  const seen = new Set<string>();
  const out: GroupPanel[] = [];
  for (const section of resolveSections(layout, names)) {
    for (const panel of section.panels) {
      const { settings } = panel;
      for (const logName of panel.metrics) {
        if (seen.has(logName)) continue;
        seen.add(logName);
        out.push({
          logName,
          logScale: settings.logScale ?? logScale,
          ...(settings.yMin !== undefined ? { yMin: settings.yMin } : {}),
          ...(settings.yMax !== undefined ? { yMax: settings.yMax } : {}),
        });
      }
    }
  }
  return out;
}
