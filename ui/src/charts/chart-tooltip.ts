/**
 * The crosshair's readout: the step (and time) under the cursor and each run's value there,
 * sorted by value when several runs are shown, long names cut in the middle (their start
 * and their end, where a sweep's lr and seed are, stay), as many runs as the plot's height
 * holds and the count of the rest. Written to the DOM directly on every cursor move (no React
 * render per mouse move).
 */
import type uPlot from 'uplot';
import { formatDuration, formatTime, formatValue } from '../format';
import { nearestIndex, type ChartModel, type XAxis } from './chart-model';
import { setCrosshairStep } from './crosshair-step';
import { middleEllipsis } from './middle-ellipsis';
import { swatchCss } from './run-colors';

/** Names longer than this are cut in the middle. */
const NAME_CHARS = 28;
/** The tooltip's distance from the top of the plot box, in CSS px. */
const TIP_TOP = 2;

/**
 * How many of `total` rows to list when `fit` rows fit: all when they fit, else one fewer
 * than fit so that the "+N more" line fits too (at least one row).
 */
export function tipRowCount(total: number, fit: number): number {
  return total <= fit ? total : Math.max(1, fit - 1);
}

const intFormat = new Intl.NumberFormat('en-US');

/** "Step 1,234", a time, or "<metric> <value>" on a metric axis: the x value under the cursor. */
export function formatX(mode: XAxis, x: number, xLabel = 'x'): string {
  if (mode === 'metric') return `${xLabel} ${formatValue(x)}`;
  if (mode === 'step') return `Step ${intFormat.format(Math.round(x))}`;
  if (mode === 'wall') return formatTime(new Date(x * 1000).toISOString());
  return x < 0 ? `−${formatDuration(-x * 1000)}` : formatDuration(x * 1000);
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string) {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Updates `box` for the cursor of `u`; hides it when the cursor is off the plot. */
export function renderTooltip(box: HTMLElement, u: uPlot, model: ChartModel, mode: XAxis, xLabel?: string): void {
  const idx = u.cursor.idx;
  const left = u.cursor.left ?? -1;
  const x = idx === null || idx === undefined ? undefined : u.data[0][idx];
  if (x === undefined || left < 0 || model.traces.length === 0) {
    box.hidden = true;
    return;
  }

  const rows: {
    name: string;
    color: string;
    dash: readonly number[];
    value: number | null;
    text: string;
    step: number;
    time: number;
  }[] = [];
  for (const t of model.traces) {
    // A run whose points end before (or start after) the cursor has no value there.
    if (t.xs.length === 0 || x < t.xs[0]! || x > t.xs[t.xs.length - 1]!) continue;
    const i = nearestIndex(t.xs, x);
    if (i < 0) continue;
    const value = t.shown[i] ?? null;
    const raw = t.ys[i] ?? null;
    const flag = t.flags[i];
    let text = flag ?? formatValue(value);
    if (flag === undefined && value !== raw) text += ` (raw ${formatValue(raw)})`;
    rows.push({
      name: t.name,
      color: t.color,
      dash: t.dash,
      value: flag ? null : value,
      text,
      step: t.steps[i]!,
      time: t.times[i]!,
    });
  }
  if (rows.length === 0) {
    box.hidden = true;
    return;
  }
  setCrosshairStep(mode === 'step' ? Math.round(x) : rows[0]!.step);
  if (rows.length > 1) rows.sort((a, b) => (b.value ?? -Infinity) - (a.value ?? -Infinity));

  const head = el('div', 'chart-tip-head', formatX(mode, x, xLabel));
  if (rows.length === 1) {
    const only = rows[0]!;
    head.textContent +=
      mode === 'step'
        ? ` · ${formatTime(new Date(only.time).toISOString())}`
        : ` · step ${intFormat.format(only.step)}`;
  }
  const list = el('ul', 'chart-tip-rows');
  const rowOf = (row: (typeof rows)[number]) => {
    const item = el('li', 'chart-tip-row');
    const swatch = el('span', 'chart-swatch');
    Object.assign(swatch.style, swatchCss({ color: row.color, dash: row.dash }));
    item.append(
      swatch,
      el('span', 'chart-tip-name', middleEllipsis(row.name, NAME_CHARS)),
      el('span', 'chart-tip-value', row.text),
    );
    return item;
  };
  // One row first, to measure how many fit in the plot's height.
  const first = rowOf(rows[0]!);
  list.append(first);
  box.replaceChildren(head, list);
  box.hidden = false;
  if (rows.length > 1) {
    const rowHeight = Math.max(1, first.offsetHeight);
    const room = (box.parentElement?.clientHeight ?? 0) - TIP_TOP - (box.offsetHeight - rowHeight);
    const count = tipRowCount(rows.length, Math.floor(room / rowHeight));
    for (const row of rows.slice(1, count)) list.append(rowOf(row));
    if (rows.length > count) list.append(el('li', 'chart-tip-more', `+${rows.length - count} more`));
  }

  // Beside the cursor, flipped to its left near the right edge; inside the plot area.
  const plotLeft = u.bbox.left / devicePixelRatio;
  const plotWidth = u.bbox.width / devicePixelRatio;
  const width = box.offsetWidth;
  const cursorX = plotLeft + left;
  const room = plotLeft + plotWidth - cursorX;
  const tipLeft = room > width + 16 ? cursorX + 12 : Math.max(0, cursorX - width - 12);
  box.style.transform = `translate(${Math.round(tipLeft)}px, ${TIP_TOP}px)`;
}
