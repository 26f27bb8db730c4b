import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { readTheme } from '../charts/chart-theme';
import { useColorScheme } from '../charts/useColorScheme';
import { useElementWidth } from '../charts/useElementWidth';
import { formatValue } from '../format';
import type { HistogramStep } from './parse-data';

const HEIGHT = 260;
const PAD = { left: 56, right: 12, top: 10, bottom: 38 };

interface Layout {
  width: number;
  plotW: number;
  plotH: number;
  lo: number;
  hi: number;
  colW: number;
}

interface Pick {
  col: number;
  bin: number;
}

function niceTicks(lo: number, hi: number, count: number): number[] {
  const span = hi - lo || 1;
  const raw = span / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? raw;
  const ticks: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) ticks.push(Number(t.toPrecision(12)));
  return ticks;
}

/** Reads the accent colour as r,g,b for shading by density. */
function accentRgb(): [number, number, number] {
  const probe = document.createElement('span');
  probe.style.color = 'var(--accent)';
  document.body.appendChild(probe);
  const m = /(\d+)\D+(\d+)\D+(\d+)/.exec(getComputedStyle(probe).color);
  probe.remove();
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [37, 99, 235];
}

/**
 * A histogram series as a distribution over steps on a canvas: one column per logged step
 * (x), value bins (y), each bin shaded by its count relative to the busiest bin of that step.
 * Hovering (or the arrow keys, when focused) reads out the step, the bin's range and count.
 */
export function HistogramFigure({ logName, steps }: { logName: string; steps: HistogramStep[] }) {
  const box = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const width = useElementWidth(box);
  const scheme = useColorScheme();
  const [pick, setPick] = useState<Pick | null>(null);
  const [drawn, setDrawn] = useState(false);

  const layout = useMemo<Layout | null>(() => {
    if (width <= 0 || steps.length === 0) return null;
    let lo = Infinity;
    let hi = -Infinity;
    for (const s of steps) {
      lo = Math.min(lo, s.edges[0]!);
      hi = Math.max(hi, s.edges[s.edges.length - 1]!);
    }
    if (hi <= lo) hi = lo + 1;
    const plotW = Math.max(40, width - PAD.left - PAD.right);
    return { width, plotW, plotH: HEIGHT - PAD.top - PAD.bottom, lo, hi, colW: plotW / steps.length };
  }, [width, steps]);

  useEffect(() => {
    const el = canvas.current;
    if (!el || !layout) return;
    const dpr = window.devicePixelRatio || 1;
    el.width = Math.round(layout.width * dpr);
    el.height = Math.round(HEIGHT * dpr);
    const ctx = el.getContext('2d');
    if (!ctx) return;
    const theme = readTheme();
    const [r, g, b] = accentRgb();
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, layout.width, HEIGHT);
    const { plotW, plotH, lo, hi, colW } = layout;
    const y = (v: number) => PAD.top + plotH - ((v - lo) / (hi - lo)) * plotH;

    steps.forEach((s, i) => {
      const max = Math.max(...s.counts, 0);
      // Snapped to whole pixels so neighbouring bins meet without seams.
      const x0 = Math.round(PAD.left + i * colW);
      const w = Math.max(Math.round(PAD.left + (i + 1) * colW) - x0, 1);
      s.counts.forEach((c, j) => {
        if (c <= 0 || max <= 0) return;
        const top = Math.round(y(s.edges[j + 1]!));
        const bottom = Math.round(y(s.edges[j]!));
        ctx.fillStyle = `rgba(${r},${g},${b},${(0.12 + 0.88 * (c / max)).toFixed(3)})`;
        ctx.fillRect(x0, top, w, Math.max(bottom - top, 1));
      });
    });

    // Axes, ticks and labels.
    ctx.strokeStyle = theme.grid;
    ctx.lineWidth = 1;
    ctx.strokeRect(PAD.left + 0.5, PAD.top + 0.5, plotW, plotH);
    ctx.fillStyle = theme.muted;
    ctx.font = theme.font;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (const t of niceTicks(lo, hi, 5)) {
      const ty = Math.round(y(t)) + 0.5;
      ctx.beginPath();
      ctx.moveTo(PAD.left - 4, ty);
      ctx.lineTo(PAD.left, ty);
      ctx.stroke();
      ctx.fillText(formatValue(t), PAD.left - 6, ty);
    }
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    const every = Math.max(1, Math.ceil(steps.length / Math.max(1, Math.floor(plotW / 60))));
    for (let i = 0; i < steps.length; i += every) {
      const tx = Math.round(PAD.left + (i + 0.5) * colW) + 0.5;
      ctx.beginPath();
      ctx.moveTo(tx, PAD.top + plotH);
      ctx.lineTo(tx, PAD.top + plotH + 4);
      ctx.stroke();
      ctx.fillText(String(steps[i]!.step), tx, PAD.top + plotH + 6);
    }
    ctx.fillStyle = theme.text;
    ctx.fillText('step', PAD.left + plotW / 2, HEIGHT - 14);
    ctx.save();
    ctx.translate(12, PAD.top + plotH / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textBaseline = 'middle';
    ctx.fillText('value', 0, 0);
    ctx.restore();
    setDrawn(true);
  }, [layout, steps, scheme]);

  const binAt = (col: number, value: number) => {
    const e = steps[col]!.edges;
    for (let j = 0; j < e.length - 1; j++) if (value >= e[j]! && value <= e[j + 1]!) return j;
    return -1;
  };

  const onMove = (event: MouseEvent<HTMLCanvasElement>) => {
    if (!layout) return;
    const rect = event.currentTarget.getBoundingClientRect();
    const px = event.clientX - rect.left - PAD.left;
    const py = event.clientY - rect.top - PAD.top;
    if (px < 0 || px > layout.plotW || py < 0 || py > layout.plotH) return setPick(null);
    const col = Math.min(steps.length - 1, Math.floor(px / layout.colW));
    const value = layout.hi - (py / layout.plotH) * (layout.hi - layout.lo);
    setPick({ col, bin: binAt(col, value) });
  };

  const onKey = (event: KeyboardEvent<HTMLCanvasElement>) => {
    const cur = pick ?? { col: steps.length - 1, bin: 0 };
    const bins = (c: number) => steps[c]!.counts.length;
    let next: Pick | null = null;
    if (event.key === 'ArrowLeft') next = { col: Math.max(0, cur.col - 1), bin: cur.bin };
    else if (event.key === 'ArrowRight') next = { col: Math.min(steps.length - 1, cur.col + 1), bin: cur.bin };
    else if (event.key === 'ArrowUp') next = { col: cur.col, bin: Math.min(bins(cur.col) - 1, cur.bin + 1) };
    else if (event.key === 'ArrowDown') next = { col: cur.col, bin: Math.max(0, cur.bin - 1) };
    else if (event.key === 'Escape') return setPick(null);
    if (!next) return;
    event.preventDefault();
    next.bin = Math.min(next.bin, bins(next.col) - 1);
    setPick(next);
  };

  const sel = pick ? steps[pick.col] : undefined;
  const first = steps[0];
  const last = steps[steps.length - 1];
  return (
    <figure className="hist-figure" aria-label={logName} aria-busy={!drawn}>
      <div ref={box} className="hist-canvas-box">
        <canvas
          ref={canvas}
          style={{ width: layout ? layout.width : '100%', height: HEIGHT }}
          tabIndex={0}
          role="img"
          aria-label={`Histogram of ${logName} over ${steps.length} steps${first && last ? ` (${first.step} to ${last.step})` : ''}; arrow keys read out bins`}
          onMouseMove={onMove}
          onMouseLeave={() => setPick(null)}
          onKeyDown={onKey}
        />
        {pick && layout && sel && (
          <div
            className="hist-cursor"
            aria-hidden="true"
            style={{
              left: PAD.left + pick.col * layout.colW,
              width: Math.max(layout.colW, 1),
              top: PAD.top,
              height: layout.plotH,
            }}
          />
        )}
      </div>
      <figcaption className="hist-readout" aria-live="polite">
        {sel && pick ? (
          pick.bin >= 0 ? (
            <>
              Step <strong>{sel.step}</strong> · bin {formatValue(sel.edges[pick.bin]!)} to{' '}
              {formatValue(sel.edges[pick.bin + 1]!)} · count <strong>{formatValue(sel.counts[pick.bin]!)}</strong>
            </>
          ) : (
            <>
              Step <strong>{sel.step}</strong> · no bin at this value
            </>
          )
        ) : (
          <span className="muted">
            {steps.length} step{steps.length === 1 ? '' : 's'}; hover or focus the figure to read a bin.
          </span>
        )}
      </figcaption>
    </figure>
  );
}
