/**
 * uPlot options for one metric chart: themed axes, one line per LineSpec (faint raw under a
 * smoothed line, faded inherited part of a fork), a crosshair synced across the page, x-only
 * drag selection handed to the caller as a zoom, and markers for non-finite points.
 */
import uPlot from 'uplot';
import { formatDuration, formatValue } from '../format';
import type { ChartModel, XAxis } from './chart-model';
import type { ChartTheme } from './chart-theme';
import { exposeTicks, labelSpace } from './x-ticks';

/** Every chart of the page shares one crosshair. */
export const SYNC_KEY = 'stepwise-charts';

/**
 * A cursor whose crosshair follows the page's other charts (a drag or double-click stays in
 * its own chart) and whose x-only drag selects without zooming (selectHook hands it on).
 */
export const syncedCursor = (points: uPlot.Cursor['points']): uPlot.Cursor => ({
  sync: {
    key: SYNC_KEY,
    setSeries: false,
    filters: { pub: (type) => type === 'mousemove' || type === 'mouseleave' || type === 'mouseenter' },
  },
  drag: { x: true, y: false, setScale: false },
  points,
});

/** The setSelect hook: a drag of 3 px or more hands its x range to `onSelect` and clears the selection box. */
export const selectHook =
  (onSelect: (x0: number, x1: number) => void) =>
  (u: uPlot): void => {
    const { left, width } = u.select;
    if (width < 3) return;
    const x0 = u.posToVal(left, 'x');
    const x1 = u.posToVal(left + width, 'x');
    u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
    onSelect(x0, x1);
  };

/** What the options read at draw time (the model changes without a new chart). */
export interface ChartHandles {
  model: () => ChartModel;
  /** The x range to hold (a zoom on the step axis), or null to fit the data. */
  xRange: () => [number, number] | null;
  onSelect: (x0: number, x1: number) => void;
  onReset: () => void;
  onCursor: (u: uPlot) => void;
}

/**
 * Past this many runs a chart draws every line 1 px wide: Chromium rasterises a canvas line of
 * one device pixel on its fast path, a wider one as a filled outline, about ten times slower
 * in software (100 runs × 300 points: ~12 ms against ~100-150 ms a draw, --disable-gpu), so
 * the compare page's 10 charts of 12 runs spent ~400 ms of its main thread rasterising; and
 * many overlapping lines read better thin. A highlighted run is drawn twice as wide.
 */
export const THIN_LINES_PAST = 10;

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 2 });

/**
 * An axis' step labels: all compact ("2.5K", "10K") once any reaches ten thousand, so one
 * axis does not mix "7500" with "10K"; plain below.
 */
export function stepLabels(splits: readonly number[]): string[] {
  const compacted = splits.some((v) => Math.abs(v) >= 10_000);
  return splits.map((v) => (compacted ? compact.format(v) : String(v)));
}

function yAxisSize(u: uPlot, values: string[] | null): number {
  if (!values) return 40;
  const longest = values.reduce((n, v) => Math.max(n, v.length), 0);
  return Math.max(36, Math.ceil(longest * 6.6) + 16);
}

/** Marks a non-finite point at the plot's edge: ▲ +Infinity, ▼ -Infinity (bottom), ◆ NaN. */
function drawMarkers(u: uPlot, model: ChartModel, theme: ChartTheme): void {
  const { left, top, width, height } = u.bbox;
  const ctx = u.ctx;
  const r = 4 * devicePixelRatio;
  ctx.save();
  for (const t of model.traces) {
    ctx.fillStyle = t.color;
    ctx.strokeStyle = theme.surface;
    ctx.lineWidth = devicePixelRatio;
    for (let i = 0; i < t.xs.length; i++) {
      const flag = t.flags[i];
      if (flag === undefined) continue;
      const cx = u.valToPos(t.xs[i]!, 'x', true);
      if (!(cx >= left - 1 && cx <= left + width + 1)) continue;
      ctx.beginPath();
      if (flag === '-Infinity') {
        const y = top + height - 1;
        ctx.moveTo(cx - r, y - 2 * r);
        ctx.lineTo(cx + r, y - 2 * r);
        ctx.lineTo(cx, y);
      } else if (flag === 'Infinity') {
        const y = top + 1;
        ctx.moveTo(cx - r, y + 2 * r);
        ctx.lineTo(cx + r, y + 2 * r);
        ctx.lineTo(cx, y);
      } else {
        const y = top + r + 1;
        ctx.moveTo(cx, y - r);
        ctx.lineTo(cx + r, y);
        ctx.lineTo(cx, y + r);
        ctx.lineTo(cx - r, y);
      }
      ctx.closePath();
      ctx.fill();
      ctx.stroke();
    }
  }
  ctx.restore();
}

/** A thin dotted line, labelled, where a fork's own part starts. */
function drawForkLines(u: uPlot, model: ChartModel, theme: ChartTheme): void {
  const { top, height, left, width } = u.bbox;
  const ctx = u.ctx;
  ctx.save();
  ctx.setLineDash([2 * devicePixelRatio, 3 * devicePixelRatio]);
  ctx.strokeStyle = theme.muted;
  ctx.lineWidth = devicePixelRatio;
  ctx.fillStyle = theme.muted;
  ctx.font = `${Math.round(10 * devicePixelRatio)}px ${theme.font.replace(/^\S+\s/, '')}`;
  ctx.textBaseline = 'top';
  for (const t of model.traces) {
    if (t.forkX === null) continue;
    const x = Math.round(u.valToPos(t.forkX, 'x', true)) + 0.5;
    if (x < left || x > left + width) continue;
    ctx.beginPath();
    ctx.moveTo(x, top);
    ctx.lineTo(x, top + height);
    ctx.stroke();
    ctx.fillText('fork', x + 3 * devicePixelRatio, top + 2 * devicePixelRatio);
  }
  ctx.restore();
}

/** A y scale's range with the ends given fixed (the others fitted to the data); undefined: fitted. */
export function fixedRange(yMin: number | undefined, yMax: number | undefined): uPlot.Scale['range'] | undefined {
  if (yMin === undefined && yMax === undefined) return undefined;
  return (_u, min, max) => {
    const lo = yMin ?? min;
    const hi = yMax ?? max;
    if (lo === null || hi === null || !Number.isFinite(lo) || !Number.isFinite(hi)) return [yMin ?? 0, yMax ?? 1];
    return lo < hi ? [lo, hi] : [lo, lo + 1];
  };
}

/** The options of a chart `width`×`height` of `model` (series shape fixed for its lifetime). */
export function chartOptions(
  model: ChartModel,
  opts: {
    width: number;
    height: number;
    xMode: XAxis;
    logScale: boolean;
    theme: ChartTheme;
    /** The x axis' title (the metric's name on a 'metric' axis). */
    xLabel?: string;
    /** Fixed ends of the y axis; absent: fitted to the data. */
    yMin?: number;
    yMax?: number;
  },
  handles: ChartHandles,
): uPlot.Options {
  const { theme, xMode, yMin, yMax } = opts;
  const axis: uPlot.Axis = {
    stroke: theme.muted,
    font: theme.font,
    grid: { stroke: theme.grid, width: 1 },
    ticks: { stroke: theme.grid, width: 1, size: 4 },
  };
  const xValues: uPlot.Axis['values'] =
    xMode === 'step'
      ? (_u, splits) => stepLabels(splits)
      : xMode === 'relative'
        ? (_u, splits) => splits.map((v) => (v < 0 ? `−${formatDuration(-v * 1000)}` : formatDuration(v * 1000)))
        : xMode === 'metric'
          ? (_u, splits) => splits.map((v) => formatValue(v))
          : undefined;
  const yRange = fixedRange(yMin, yMax);

  const thin = model.traces.length > THIN_LINES_PAST;
  const series: uPlot.Series[] = [{}];
  for (const line of model.lines) {
    const { color, dash } = model.traces[line.run]!;
    series.push({
      label: model.traces[line.run]!.name,
      stroke: color,
      width: line.faint || thin ? 1 : line.kind === 'smooth' ? 1.75 : 1.5,
      // uPlot draws dashes in canvas pixels.
      ...(dash.length > 0 ? { dash: dash.map((d) => d * devicePixelRatio) } : {}),
      // A fork's inherited part is faded (its parent's points); its own part is solid.
      alpha: line.faint ? (line.part === 'inherited' ? 0.15 : 0.3) : line.part === 'inherited' ? 0.4 : 1,
      points: line.faint || line.part === 'inherited' ? { show: false } : { size: 4 },
      value: (_u, v) => formatValue(v),
    });
  }

  return {
    width: opts.width,
    height: opts.height,
    padding: [10, 20, 0, 0],
    legend: { show: false },
    series,
    scales: {
      x: {
        time: xMode === 'wall',
        range: (_u, min, max) => {
          const held = handles.xRange();
          if (held) return held;
          if (min === null || max === null || !Number.isFinite(min) || !Number.isFinite(max)) return [0, 1];
          return min === max ? [min - 1, max + 1] : [min, max];
        },
      },
      y: { ...(opts.logScale ? { distr: 3, log: 10 } : {}), ...(yRange ? { range: yRange } : {}) },
    },
    axes: [
      {
        ...axis,
        values: xValues,
        space: labelSpace(theme.font),
        size: 34,
        ...(opts.xLabel ? { label: opts.xLabel, labelSize: 18, labelFont: theme.font } : {}),
      },
      // A log axis leaves its minor ticks unlabelled (null splits).
      { ...axis, size: yAxisSize, values: (_u, splits) => splits.map((v) => (v === null ? '' : formatValue(v))) },
    ],
    cursor: syncedCursor({ size: 6 }),
    hooks: {
      setCursor: [(u) => handles.onCursor(u)],
      setSelect: [selectHook(handles.onSelect)],
      draw: [
        (u) => {
          const model = handles.model();
          drawForkLines(u, model, theme);
          drawMarkers(u, model, theme);
        },
        (u) => exposeTicks(u, theme.font),
      ],
      ready: [
        (u) => {
          u.over.addEventListener('dblclick', () => handles.onReset());
        },
      ],
    },
  };
}
