/**
 * uPlot options of a grouped chart: per group a band (filled between its low and high edge,
 * which draw no line) under its mean line, themed axes, and the crosshair synced with the
 * page's other charts.
 */
import uPlot from 'uplot';
import { fixedRange, selectHook, syncedCursor } from '../charts/chart-options';
import type { ChartTheme } from '../charts/chart-theme';
import { exposeTicks, labelSpace } from '../charts/x-ticks';
import { formatValue } from '../format';
import type { GroupChartModel } from './group-chart-model';

/** `#rrggbb` at `alpha` as rgba(). */
export function withAlpha(hex: string, alpha: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 2 });

/**
 * Options for `model` drawn `width`×`height` (y on a log scale and between fixed ends when
 * asked), group i in `colors[i]`: `onCursor` on every
 * cursor move, `onSelect` for an x drag, `onReset` for a double-click.
 */
export function groupChartOptions(
  model: GroupChartModel,
  colors: readonly string[],
  size: { width: number; height: number; logScale?: boolean; yMin?: number; yMax?: number },
  theme: ChartTheme,
  handles: {
    onCursor: (u: uPlot) => void;
    /** A drag across steps x0..x1 (a zoom). */
    onSelect: (x0: number, x1: number) => void;
    /** A double-click (the zoom reset). */
    onReset: () => void;
  },
): uPlot.Options {
  const axis: uPlot.Axis = {
    stroke: theme.muted,
    font: theme.font,
    grid: { stroke: theme.grid, width: 1 },
    ticks: { stroke: theme.grid, width: 1, size: 4 },
  };
  const yRange = fixedRange(size.yMin, size.yMax);
  const series: uPlot.Series[] = [{}];
  const bands: uPlot.Band[] = [];
  model.traces.forEach((t, i) => {
    const color = colors[i] ?? theme.muted;
    const low = series.length;
    series.push({ label: `${t.label} low`, stroke: 'transparent', width: 0, points: { show: false } });
    series.push({ label: `${t.label} high`, stroke: 'transparent', width: 0, points: { show: false } });
    series.push({
      label: t.label,
      stroke: color,
      width: 1.75,
      points: { show: false },
      value: (_u, v) => formatValue(v),
    });
    bands.push({ series: [low + 1, low], fill: withAlpha(color, 0.18) });
  });
  return {
    width: size.width,
    height: size.height,
    padding: [10, 20, 0, 0],
    legend: { show: false },
    series,
    bands,
    scales: {
      y: { ...(size.logScale ? { distr: 3, log: 10 } : {}), ...(yRange ? { range: yRange } : {}) },
      x: {
        time: false,
        range: (_u, min, max) =>
          min === null || max === null || !Number.isFinite(min) || !Number.isFinite(max)
            ? [0, 1]
            : min === max
              ? [min - 1, max + 1]
              : [min, max],
      },
    },
    axes: [
      {
        ...axis,
        size: 34,
        space: labelSpace(theme.font),
        values: (_u, splits) => splits.map((v) => (Math.abs(v) >= 10_000 ? compact.format(v) : String(v))),
      },
      {
        ...axis,
        size: 56,
        values: (_u, splits) => splits.map((v) => (v === null ? '' : formatValue(v))),
      },
    ],
    cursor: syncedCursor({ show: false }),
    hooks: {
      setCursor: [handles.onCursor],
      setSelect: [selectHook(handles.onSelect)],
      ready: [(u) => u.over.addEventListener('dblclick', () => handles.onReset())],
      draw: [(u) => exposeTicks(u, theme.font)],
    },
  };
}
