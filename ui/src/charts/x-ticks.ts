/**
 * The x axis' tick spacing from its labels' measured widths. uPlot keeps ticks at least
 * `space` CSS px apart (50 by default), whatever their labels: "12,000"-wide step labels or
 * "10:15:30am" times overlapped on a chart ~460 px wide. Here `space` is the smallest tick
 * spacing among the axis' own increments at which the labels it would draw there (its own
 * splits and values, so step, time and metric axes alike) are narrower than the spacing by
 * a gap; uPlot then picks that increment.
 */
import type uPlot from 'uplot';

/** Free space between two neighbouring labels, in CSS px. */
export const LABEL_GAP = 12;
/** The least tick spacing tried, in CSS px. */
const MIN_SPACE = 24;

/** The widest line of `label` (a time label may have two). */
function labelWidth(label: string, measure: (text: string) => number): number {
  return label.split('\n').reduce((w, line) => Math.max(w, measure(line)), 0);
}

/**
 * The tick spacing (CSS px) for an axis from `min` to `max` drawn `dim` px long: the first
 * of `incrs` (ascending) whose spacing is at least MIN_SPACE and exceeds the widest of the
 * labels `labelsAt(incr, spacing)` by `gap`; the whole length when none does (one tick).
 * Labels left out (null) take no room.
 */
export function fittingSpace(
  min: number,
  max: number,
  dim: number,
  incrs: readonly number[],
  labelsAt: (incr: number, spacing: number) => readonly (string | number | null)[],
  measure: (text: string) => number,
  gap = LABEL_GAP,
): number {
  const delta = max - min;
  if (!(delta > 0) || !(dim > 0)) return MIN_SPACE;
  for (const incr of incrs) {
    const spacing = (dim * incr) / delta;
    if (spacing < MIN_SPACE) continue;
    let widest = 0;
    for (const label of labelsAt(incr, spacing)) {
      if (label !== null) widest = Math.max(widest, labelWidth(String(label), measure));
    }
    // A hair under: uPlot takes the first increment whose spacing is >= the space asked.
    if (widest + gap <= spacing) return spacing * (1 - 1e-9);
  }
  return dim;
}

let canvas: CanvasRenderingContext2D | null = null;
const widths = new Map<string, number>();

/** The width in CSS px of `text` in CSS `font` (remembered). */
export function measureText(font: string, text: string): number {
  const key = `${font}\u0000${text}`;
  const known = widths.get(key);
  if (known !== undefined) return known;
  canvas ??= document.createElement('canvas').getContext('2d');
  if (!canvas) return text.length * 7;
  canvas.font = font;
  const w = canvas.measureText(text).width;
  if (widths.size > 5000) widths.clear();
  widths.set(key, w);
  return w;
}

/**
 * The `space` option of an x axis whose labels are drawn in CSS `font`: it asks the axis'
 * own increments, splits, filter and values (uPlot has made them functions by then).
 */
export function labelSpace(font: string): uPlot.Axis.Space {
  return (u, axisIdx, min, max, dim) => {
    const axis = u.axes[axisIdx]!;
    const { incrs, splits, values, filter } = axis;
    if (typeof incrs !== 'function' || typeof splits !== 'function' || typeof values !== 'function') return 50;
    return fittingSpace(
      min,
      max,
      dim,
      incrs(u, axisIdx, min, max, dim, MIN_SPACE),
      (incr, spacing) => {
        const at = splits(u, axisIdx, min, max, incr, spacing);
        const kept = typeof filter === 'function' ? filter(u, at, axisIdx, spacing, incr) : at;
        return values(u, kept as number[], axisIdx, spacing, incr);
      },
      (text) => measureText(font, text),
    );
  };
}

/**
 * Writes the x labels uPlot drew as `data-x-ticks` on the chart's root, each [left, right,
 * label] in CSS px (a label is centred on its tick), the y labels as `data-y-ticks` and the
 * y scale's kind (`log` or `linear`) as `data-y-scale`, for tests to read what the axes
 * show without reading pixels. A draw hook.
 */
export function exposeTicks(u: uPlot, font: string): void {
  // uPlot's drawn splits and labels of each axis (not in its typings).
  const axes = u.axes as (uPlot.Axis & { _splits?: number[] | null; _values?: (string | number | null)[] | null })[];
  const x = axes[0];
  const boxes: [number, number, string][] = [];
  (x?._values ?? []).forEach((label, i) => {
    const split = x?._splits?.[i];
    if (label === null || split === undefined || label === '') return;
    const at = u.valToPos(split, 'x');
    const half = labelWidth(String(label), (t) => measureText(font, t)) / 2;
    boxes.push([at - half, at + half, String(label)]);
  });
  u.root.dataset.xTicks = JSON.stringify(boxes);
  u.root.dataset.yTicks = JSON.stringify((axes[1]?._values ?? []).filter((v) => v !== null && v !== ''));
  u.root.dataset.yScale = u.scales.y?.distr === 3 ? 'log' : 'linear';
}
