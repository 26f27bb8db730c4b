/**
 * One run drawn highlighted on a drawn chart, without building it again: its lines twice as
 * thick, every other line faded to a fifth of its opacity (so the highlighted one reads as in
 * front). Only widths and opacities change, so the chart redraws from its cached paths.
 */
import type uPlot from 'uplot';
import type { ChartModel } from './chart-model';

/** A series' own look, as chartOptions made it (index 0: the x series). */
export interface SeriesLook {
  width: number;
  alpha: number;
}

/** The looks of a new chart's series, to return to when the highlight ends. */
export const seriesLooks = (u: uPlot): SeriesLook[] =>
  u.series.map((s) => ({ width: s.width ?? 1, alpha: s.alpha ?? 1 }));

/** Draws `runId` highlighted on `u` (null: every run as it was); returns nothing. */
export function applyHighlight(u: uPlot, model: ChartModel, looks: readonly SeriesLook[], runId: number | null): void {
  let changed = false;
  model.lines.forEach((line, i) => {
    const s = u.series[i + 1];
    const look = looks[i + 1];
    if (!s || !look) return;
    const mine = runId !== null && model.traces[line.run]?.runId === runId;
    const width = mine ? look.width * 2 : look.width;
    const alpha = runId === null || mine ? look.alpha : look.alpha * 0.2;
    if (s.width !== width || s.alpha !== alpha) changed = true;
    s.width = width;
    s.alpha = alpha;
  });
  if (changed) u.redraw(false);
}
