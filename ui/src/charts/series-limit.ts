/**
 * How many points a chart asks per run's series (`limit` of the series reads): enough for
 * the plot's pixels, and for a chart of many runs a share of one budget per chart.
 */
import { MAX_SERIES_LIMIT } from '../api/metric-queries';

/** Px of a chart's width outside its plot area: the y axis (at least 36) and the right padding (20), chart-options.ts. */
const NON_PLOT_PX = 56;

/**
 * The points a chart asks for over all its runs: 300 a run at 100 runs. Past ~30,000 points
 * a chart draws no more detail (a plot ~1,400 px wide has ~1,400 x positions, each line keeps
 * its lowest and highest point per position), but every point costs the server's read, the
 * answer's bytes, the JSON parse and uPlot's join and draw.
 */
export const CHART_POINT_BUDGET = 30_000;

/** The fewest points a run's series is asked for, however many runs share a chart. */
const MIN_LIMIT = 200;

/**
 * Points to ask per series: two per pixel of the plot area (each bucket's lowest and highest,
 * one bucket per pixel), in steps of 100 so a resize rarely refetches (counting the axis as
 * plot asked a third more points than a chart can show: 1,000 instead of 800 at 448 px); with
 * many runs, their share of CHART_POINT_BUDGET, rounded down to a hundred so hiding or showing
 * a run rarely refetches (100 runs and 99 both ask 300), and at least MIN_LIMIT.
 */
export function seriesLimit(width: number, runs = 1): number {
  const perPixel = Math.min(MAX_SERIES_LIMIT, plotColumns(width));
  const share = Math.max(MIN_LIMIT, Math.floor(CHART_POINT_BUDGET / Math.max(1, runs) / 100) * 100);
  return Math.min(perPixel, share);
}

/** Two columns per pixel of the plot area of a chart `width` px wide, in steps of 100 (at least 250). */
export function plotColumns(width: number): number {
  return Math.max(250, Math.ceil((2 * (width - NON_PLOT_PX)) / 100) * 100);
}
