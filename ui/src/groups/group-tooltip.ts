/**
 * The grouped chart's readout at the cursor: the bucket's steps, then per group its mean,
 * its band and n ("mean 0.512 · ±std 0.48–0.54 · n 4"), written to the DOM directly. In a
 * phone-sized window it is compact: one smaller line per group, only the groups whose
 * means are nearest the cursor, and "+N more".
 */
import type uPlot from 'uplot';
import { tipRowCount } from '../charts/chart-tooltip';
import { formatValue } from '../format';
import { BAND_SHORT, type BandKind } from './group-by';
import type { GroupChartModel } from './group-chart-model';

const intFormat = new Intl.NumberFormat('en-US');

/** Where the readout is compact: a phone-sized window (groups.css's narrow width). */
const COMPACT_MEDIA = '(max-width: 640px)';
/** The most lines of the compact readout, "+N more" included. */
const COMPACT_ROWS = 4;

/** The places (into `ys`) of the `count` values nearest `y`, nearest first; nulls last. */
export function nearestRows(ys: readonly (number | null)[], y: number, count: number): number[] {
  const dist = (v: number | null) => (v === null || !Number.isFinite(v) ? Infinity : Math.abs(v - y));
  return ys
    .map((_, i) => i)
    .sort((a, b) => dist(ys[a]!) - dist(ys[b]!) || a - b)
    .slice(0, count);
}

/** One group's line of the readout. */
export function tipLine(mean: number, low: number, high: number, n: number, band: BandKind): string {
  return `mean ${formatValue(mean)} · ${BAND_SHORT[band]} ${formatValue(low)}–${formatValue(high)} · n ${n}`;
}

/** One group's line of the compact readout: the band's name is in the chart's caption. */
export function compactTipLine(mean: number, low: number, high: number, n: number): string {
  return `${formatValue(mean)} · ${formatValue(low)}–${formatValue(high)} · n ${n}`;
}

/** Updates `box` for the cursor of `u`; hides it when the cursor is off the plot or on no bucket. */
export function renderGroupTooltip(
  box: HTMLElement,
  u: uPlot,
  model: GroupChartModel,
  colors: readonly string[],
  band: BandKind,
): void {
  const idx = u.cursor.idx;
  const left = u.cursor.left ?? -1;
  if (idx === null || idx === undefined || left < 0) {
    box.hidden = true;
    return;
  }
  const rows = model.traces.flatMap((t, i) => {
    const p = t.points[idx];
    return p ? [{ t, p, color: colors[i] ?? 'currentColor', i }] : [];
  });
  if (rows.length === 0) {
    box.hidden = true;
    return;
  }
  const first = rows[0]!.p;
  const compact = matchMedia(COMPACT_MEDIA).matches;
  let shown = rows;
  if (compact && rows.length > COMPACT_ROWS) {
    // Nearest on the screen, so a log scale counts as it is drawn.
    const top = u.cursor.top ?? 0;
    const ys = rows.map((r) => u.valToPos(r.p.mean, 'y'));
    const keep = nearestRows(ys, top, tipRowCount(rows.length, COMPACT_ROWS));
    shown = keep.map((k) => rows[k]!);
  }
  box.classList.toggle('group-tip-compact', compact);
  box.replaceChildren();
  const head = document.createElement('div');
  head.className = 'chart-tip-head';
  head.textContent =
    first.stepEnd > first.step
      ? `Steps ${intFormat.format(first.step)}–${intFormat.format(first.stepEnd)}`
      : `Step ${intFormat.format(first.step)}`;
  const list = document.createElement('ul');
  list.className = 'chart-tip-rows';
  for (const { t, p, color, i } of shown) {
    const li = document.createElement('li');
    li.className = 'chart-tip-row group-tip-row';
    const sw = document.createElement('span');
    sw.className = 'chart-swatch';
    sw.style.backgroundColor = color;
    const name = document.createElement('span');
    name.className = 'chart-tip-name';
    name.textContent = t.label;
    const value = document.createElement('span');
    value.className = 'group-tip-value';
    value.textContent = compact
      ? compactTipLine(p.mean, t.low[idx]!, t.high[idx]!, p.n)
      : tipLine(p.mean, t.low[idx]!, t.high[idx]!, p.n, band);
    li.dataset.group = String(i);
    li.append(sw, name, value);
    list.append(li);
  }
  if (shown.length < rows.length) {
    const more = document.createElement('li');
    more.className = 'chart-tip-more';
    more.textContent = `+${rows.length - shown.length} more`;
    list.append(more);
  }
  box.append(head, list);
  box.hidden = false;
  const plotLeft = u.over.offsetLeft;
  const wide = box.offsetWidth;
  const x = plotLeft + left + 12;
  box.style.transform = `translate(${x + wide > u.width ? Math.max(0, plotLeft + left - wide - 12) : x}px, 2px)`;
}
