/**
 * The crosshair's readout: the step (and time) under the cursor and each run's value there,
 * sorted by value when several runs are shown, long names cut with an ellipsis. Written to
 * the DOM directly on every cursor move (no React render per mouse move).
 */
import type uPlot from 'uplot';
import { formatDuration, formatTime, formatValue } from '../format';
import { nearestIndex, type ChartModel, type XMode } from './chart-model';
import { setCrosshairStep } from './crosshair-step';

/** At most this many runs are listed; the rest are counted. */
const MAX_ROWS = 8;

const intFormat = new Intl.NumberFormat('en-US');

/** "Step 1,234" and the time beside it, for the x value under the cursor. */
export function formatX(mode: XMode, x: number): string {
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
export function renderTooltip(box: HTMLElement, u: uPlot, model: ChartModel, mode: XMode): void {
  const idx = u.cursor.idx;
  const left = u.cursor.left ?? -1;
  const x = idx === null || idx === undefined ? undefined : u.data[0][idx];
  if (x === undefined || left < 0 || model.traces.length === 0) {
    box.hidden = true;
    return;
  }

  const rows: { name: string; color: string; value: number | null; text: string; step: number; time: number }[] = [];
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
    rows.push({ name: t.name, color: t.color, value: flag ? null : value, text, step: t.steps[i]!, time: t.times[i]! });
  }
  if (rows.length === 0) {
    box.hidden = true;
    return;
  }
  setCrosshairStep(mode === 'step' ? Math.round(x) : rows[0]!.step);
  if (rows.length > 1) rows.sort((a, b) => (b.value ?? -Infinity) - (a.value ?? -Infinity));

  const head = el('div', 'chart-tip-head', formatX(mode, x));
  if (rows.length === 1) {
    const only = rows[0]!;
    head.textContent +=
      mode === 'step'
        ? ` · ${formatTime(new Date(only.time).toISOString())}`
        : ` · step ${intFormat.format(only.step)}`;
  }
  const list = el('ul', 'chart-tip-rows');
  for (const row of rows.slice(0, MAX_ROWS)) {
    const item = el('li', 'chart-tip-row');
    const swatch = el('span', 'chart-swatch');
    swatch.style.background = row.color;
    item.append(swatch, el('span', 'chart-tip-name', row.name), el('span', 'chart-tip-value', row.text));
    list.append(item);
  }
  if (rows.length > MAX_ROWS) list.append(el('li', 'chart-tip-more', `+${rows.length - MAX_ROWS} more`));
  box.replaceChildren(head, list);
  box.hidden = false;

  // Beside the cursor, flipped to its left near the right edge; inside the plot area.
  const plotLeft = u.bbox.left / devicePixelRatio;
  const plotTop = u.bbox.top / devicePixelRatio;
  const plotWidth = u.bbox.width / devicePixelRatio;
  const width = box.offsetWidth;
  const cursorX = plotLeft + left;
  const room = plotLeft + plotWidth - cursorX;
  const tipLeft = room > width + 16 ? cursorX + 12 : Math.max(0, cursorX - width - 12);
  box.style.transform = `translate(${Math.round(tipLeft)}px, ${Math.round(plotTop + 4)}px)`;
}
