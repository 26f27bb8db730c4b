import { useRef, useState, type PointerEvent } from 'react';
import type { RunRow } from '@server/api/schemas/runs';
import { runStyle } from '../charts/run-colors';
import { useElementWidth } from '../charts/useElementWidth';
import { type Brush, inBrush } from './brush';
import { type Axis, type AxisValue, axisPosition, axisValueAt, showAxisValue } from './sweep-axes';

const HEIGHT = 260;
const TOP = 34;
const BOTTOM = 22;
const SIDE = 44;
const PLOT = HEIGHT - TOP - BOTTOM;
/** A second row of axis titles sits this much lower (the plot moves down with it). */
const TITLE_ROW = 16;
/** A generous width of one character of an axis title (12 px, bold), to tell when titles would meet. */
const TITLE_CHAR_PX = 8;

/**
 * Whether the axis titles, `step` pixels apart, would run into each other on one row (the
 * first is anchored at its start, the last at its end, the others at their middle).
 */
export function titlesCrowded(labels: readonly string[], step: number, gap = 6): boolean {
  const widths = labels.map((l) => [...l].length * TITLE_CHAR_PX);
  const last = labels.length - 1;
  const right = (i: number) => (i === 0 ? widths[i]! : i === last ? 0 : widths[i]! / 2);
  const left = (i: number) => (i === 0 ? 0 : i === last ? widths[i]! : widths[i]! / 2);
  for (let i = 0; i < last; i++) if (right(i) + left(i + 1) + gap > step) return true;
  return false;
}

/** The brush a drag from `a` to `b` (places 0..1 on the axis) makes. */
function brushOf(axis: Axis, a: number, b: number): Brush | undefined {
  const lo = Math.min(a, b);
  const hi = Math.max(a, b);
  if (axis.kind === 'number') return { field: axis.field, lo: axisValueAt(axis, lo), hi: axisValueAt(axis, hi) };
  const values = axis.categories.filter((c) => {
    const at = axisPosition(axis, c)!;
    return at >= lo && at <= hi;
  });
  return values.length > 0 ? { field: axis.field, values } : undefined;
}

/** The brush's span on its axis as places 0..1 (a category brush from its lowest to its highest category). */
function brushSpan(axis: Axis, b: Brush): [number, number] | undefined {
  if (!('values' in b)) {
    const lo = axisPosition(axis, b.lo);
    const hi = axisPosition(axis, b.hi);
    return lo === null || hi === null ? undefined : [Math.max(0, lo), Math.min(1, hi)];
  }
  const at = b.values.map((v) => axisPosition(axis, v)).filter((p): p is number => p !== null);
  if (at.length === 0) return undefined;
  const pad = axis.kind === 'category' && axis.categories.length > 1 ? 0.25 / (axis.categories.length - 1) : 0.05;
  return [Math.max(0, Math.min(...at) - pad), Math.min(1, Math.max(...at) + pad)];
}

/**
 * The span a key press makes of `span` (places 0..1): with none, the middle fifth; an arrow
 * moves it a tenth up (`dir` 1) or down, or with `grow` moves its top edge only (keeping at
 * least a twentieth), inside the axis.
 */
export function keyedSpan(span: readonly [number, number] | undefined, dir: 1 | -1, grow: boolean): [number, number] {
  if (!span) return [0.4, 0.6];
  const [lo, hi] = span;
  if (grow) return [lo, Math.min(1, Math.max(lo + 0.05, hi + dir * 0.1))];
  const shift = dir > 0 ? Math.min(0.1, 1 - hi) : -Math.min(0.1, lo);
  return [lo + shift, hi + shift];
}

/**
 * Parallel coordinates of the runs over `axes` (config keys, then the metric): one line per
 * run in its colour, runs outside a brush faded. Dragging along an axis brushes it (the runs
 * table keeps the runs inside every brush); a click on an axis clears its brush.
 */
export function ParallelCoordinates({
  runs,
  axes,
  values,
  brushes,
  onBrush,
}: {
  runs: readonly RunRow[];
  axes: readonly Axis[];
  /** values[axis][run]. */
  values: readonly (readonly AxisValue[])[];
  brushes: readonly Brush[];
  /** A new brush for the axis' field, or undefined to clear it. */
  onBrush: (field: string, brush: Brush | undefined) => void;
}) {
  const boxRef = useRef<HTMLDivElement>(null);
  const width = Math.max(280, useElementWidth(boxRef));
  const [drag, setDrag] = useState<{ axis: number; from: number; to: number } | null>(null);
  const step = axes.length > 1 ? (width - 2 * SIDE) / (axes.length - 1) : 0;
  const xOf = (i: number) => (axes.length > 1 ? SIDE + i * step : width / 2);
  // Titles too wide for their axes' spacing alternate between two rows.
  const twoRows =
    axes.length > 2 &&
    titlesCrowded(
      axes.map((a) => a.label),
      step,
    );
  const top = TOP + (twoRows ? TITLE_ROW : 0);
  const yOf = (at: number) => top + (1 - at) * PLOT;
  const placeOf = (e: PointerEvent<SVGElement>) => {
    const box = e.currentTarget.ownerSVGElement?.getBoundingClientRect() ?? e.currentTarget.getBoundingClientRect();
    return Math.max(0, Math.min(1, 1 - (e.clientY - box.top - top) / PLOT));
  };
  const kept = runs.map((_, r) =>
    brushes.every((b) => {
      const a = axes.findIndex((x) => x.field === b.field);
      return a < 0 || inBrush(b, values[a]![r]!);
    }),
  );

  const paths = runs.map((run, r) => {
    let d = '';
    let open = false;
    axes.forEach((axis, a) => {
      const at = axisPosition(axis, values[a]![r]!);
      if (at === null) {
        open = false;
        return;
      }
      d += `${open ? 'L' : 'M'}${xOf(a).toFixed(1)},${yOf(at).toFixed(1)}`;
      open = true;
    });
    return { run, d, kept: kept[r]! };
  });
  // Faded lines first, the kept ones over them.
  paths.sort((p, q) => Number(p.kept) - Number(q.kept));

  return (
    <div className="sweep-pc" ref={boxRef}>
      <svg
        width={width}
        height={HEIGHT + top - TOP}
        role="img"
        aria-label={`Parallel coordinates of ${runs.length} runs over ${axes.map((a) => a.label).join(', ')}`}
      >
        {paths.map((p) => (
          <path
            key={p.run.id}
            d={p.d}
            fill="none"
            stroke={p.kept ? runStyle(p.run.number).color : 'var(--border)'}
            strokeWidth={p.kept ? 1.5 : 1}
            strokeOpacity={p.kept ? 0.85 : 0.6}
          >
            <title>{p.run.name}</title>
          </path>
        ))}
        {axes.map((axis, a) => {
          const x = xOf(a);
          const brush = brushes.find((b) => b.field === axis.field);
          const span =
            drag?.axis === a
              ? ([Math.min(drag.from, drag.to), Math.max(drag.from, drag.to)] as const)
              : brush && brushSpan(axis, brush);
          const anchor = a === 0 ? 'start' : a === axes.length - 1 && axes.length > 1 ? 'end' : 'middle';
          const ticks: { at: number; text: string }[] =
            axis.kind === 'number'
              ? [
                  { at: 0, text: showAxisValue(axis.min) },
                  { at: 1, text: showAxisValue(axis.max) },
                ]
              : axis.categories.map((c) => ({ at: axisPosition(axis, c)!, text: showAxisValue(c) }));
          return (
            <g key={axis.field} className="sweep-axis">
              <line x1={x} x2={x} y1={top} y2={top + PLOT} stroke="var(--muted)" />
              <text x={x} y={14 + (twoRows && a % 2 ? TITLE_ROW : 0)} textAnchor={anchor} className="sweep-axis-title">
                {axis.label}
              </text>
              {ticks.map((t) => (
                <text
                  key={t.text}
                  x={x + (anchor === 'end' ? -5 : 5)}
                  y={yOf(t.at) + 4}
                  textAnchor={anchor === 'end' ? 'end' : 'start'}
                  className="sweep-tick"
                >
                  {t.text}
                </text>
              ))}
              {span && (
                <rect
                  className="sweep-brush"
                  x={x - 7}
                  width={14}
                  y={yOf(span[1])}
                  height={Math.max(2, yOf(span[0]) - yOf(span[1]))}
                />
              )}
              <rect
                className="sweep-axis-hit"
                x={x - 14}
                width={28}
                y={top}
                height={PLOT}
                role="button"
                aria-label={`Brush ${axis.label}: drag along the axis or use the arrow keys (with Shift: its top edge); a click or Delete clears it`}
                onPointerDown={(e) => {
                  e.currentTarget.setPointerCapture(e.pointerId);
                  const at = placeOf(e);
                  setDrag({ axis: a, from: at, to: at });
                }}
                onPointerMove={(e) => {
                  if (drag?.axis === a) setDrag({ ...drag, to: placeOf(e) });
                }}
                onPointerUp={(e) => {
                  if (drag?.axis !== a) return;
                  const to = placeOf(e);
                  setDrag(null);
                  const tall = Math.abs(to - drag.from) * PLOT >= 4;
                  onBrush(axis.field, tall ? brushOf(axis, drag.from, to) : undefined);
                }}
                onPointerCancel={() => setDrag(null)}
                onKeyDown={(e) => {
                  if (e.key === 'Escape' || e.key === 'Delete' || e.key === 'Backspace') {
                    onBrush(axis.field, undefined);
                  } else if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
                    e.preventDefault();
                    const next = keyedSpan(brush && brushSpan(axis, brush), e.key === 'ArrowUp' ? 1 : -1, e.shiftKey);
                    onBrush(axis.field, brushOf(axis, next[0], next[1]));
                  }
                }}
                tabIndex={0}
              />
            </g>
          );
        })}
      </svg>
    </div>
  );
}
