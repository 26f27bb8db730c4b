/** A chart's exports: the drawn canvas as PNG (with title and runs) and the shown points as CSV. */
import type uPlot from 'uplot';
import type { ChartModel } from './chart-model';
import type { ChartTheme } from './chart-theme';

/** What a PNG names above the plot: each line's name in its colour (a run, or a group). */
export type ExportLegend = readonly { name: string; color: string }[];

/** A file name from a metric name: `train/loss` → `train_loss`. */
export const fileStem = (logName: string): string =>
  logName.replace(/[^\w.-]+/g, '_').replace(/^_+|_+$/g, '') || 'chart';

function download(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The chart as a PNG: the page's surface colour behind it, the metric name and lines above. */
export function pngBlob(u: uPlot, logName: string, legend: ExportLegend, theme: ChartTheme): Promise<Blob> {
  const src = u.ctx.canvas;
  const dpr = devicePixelRatio;
  const header = Math.round(28 * dpr);
  const out = document.createElement('canvas');
  out.width = src.width;
  out.height = src.height + header;
  const ctx = out.getContext('2d');
  if (!ctx) return Promise.reject(new Error('No 2D canvas'));
  ctx.fillStyle = theme.surface;
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.textBaseline = 'middle';
  ctx.font = `600 ${Math.round(13 * dpr)}px ${getComputedStyle(document.documentElement).fontFamily}`;
  ctx.fillStyle = theme.text;
  ctx.fillText(logName, 8 * dpr, header / 2);
  let x = 8 * dpr + ctx.measureText(logName).width + 16 * dpr;
  ctx.font = `${Math.round(11 * dpr)}px ${getComputedStyle(document.documentElement).fontFamily}`;
  for (const t of legend) {
    if (legend.length < 2 || x > out.width - 40 * dpr) break;
    ctx.fillStyle = t.color;
    ctx.fillRect(x, header / 2 - 4 * dpr, 8 * dpr, 8 * dpr);
    ctx.fillStyle = theme.text;
    ctx.fillText(t.name, x + 12 * dpr, header / 2);
    x += 12 * dpr + ctx.measureText(t.name).width + 12 * dpr;
  }
  ctx.drawImage(src, 0, header);
  return new Promise((resolve, reject) =>
    out.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The chart could not be encoded'))), 'image/png'),
  );
}

/** Saves the chart as `<logName>.png`. */
export async function downloadPng(u: uPlot, logName: string, legend: ExportLegend, theme: ChartTheme): Promise<void> {
  download(await pngBlob(u, logName, legend, theme), `${fileStem(logName)}.png`);
}

/** Saves CSV text as `<logName>.csv`. */
export function downloadCsvText(logName: string, csv: string): void {
  download(new Blob([csv], { type: 'text/csv' }), `${fileStem(logName)}.csv`);
}

export function csvField(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The shown points as CSV: one row per run and point, smoothed values when smoothing is on. */
export function chartCsv(model: ChartModel, smoothing: number): string {
  const head = ['run', 'runId', 'step', 'time', 'value', 'valueFlag'];
  if (smoothing > 0) head.push('smoothed');
  const rows = [head.join(',')];
  for (const t of model.traces) {
    for (let i = 0; i < t.steps.length; i++) {
      const row = [
        csvField(t.name),
        String(t.runId),
        String(t.steps[i]),
        new Date(t.times[i]!).toISOString(),
        t.ys[i] === null ? '' : String(t.ys[i]),
        t.flags[i] ?? '',
      ];
      if (smoothing > 0) row.push(t.shown[i] === null ? '' : String(t.shown[i]));
      rows.push(row.join(','));
    }
  }
  return rows.join('\n') + '\n';
}

/** Saves the shown points as `<logName>.csv`. */
export function downloadCsv(logName: string, model: ChartModel, smoothing: number): void {
  downloadCsvText(logName, chartCsv(model, smoothing));
}
