import { useRef } from 'react';
import type { RunRow } from '@server/api/schemas/runs';
import { runStyle } from '../charts/run-colors';
import { useElementWidth } from '../charts/useElementWidth';
import { type Axis, type AxisValue, axisPosition, showAxisValue } from './sweep-axes';

const HEIGHT = 240;
/** Room on the left for a value tick of up to 9 characters (showAxisValue's 4 digits, a sign, a decimal point). */
const PAD = { top: 12, right: 16, bottom: 38, left: 64 };

/**
 * The metric (y) of each run against a config key (x): one dot per run in its colour, faded
 * when outside a brush; a category key spaces its values evenly along x.
 */
export function SweepScatter({
  runs,
  x,
  y,
  xs,
  ys,
  kept,
}: {
  runs: readonly RunRow[];
  x: Axis;
  y: Axis;
  xs: readonly AxisValue[];
  ys: readonly AxisValue[];
  kept: readonly boolean[];
}) {
  const boxRef = useRef<HTMLDivElement>(null);
  const width = Math.max(260, useElementWidth(boxRef));
  const plotW = width - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  // A little room inside the edges so that dots at the ends show whole.
  const px = (at: number) => PAD.left + (0.04 + 0.92 * at) * plotW;
  const py = (at: number) => PAD.top + (1 - (0.04 + 0.92 * at)) * plotH;
  const xTicks =
    x.kind === 'number'
      ? [x.min, x.max].map((v) => ({ at: axisPosition(x, v)!, text: showAxisValue(v) }))
      : x.categories.map((c) => ({ at: axisPosition(x, c)!, text: showAxisValue(c) }));
  const yTicks = y.kind === 'number' ? [y.min, (y.min + y.max) / 2, y.max] : [];
  const dots = runs.flatMap((run, i) => {
    const ax = axisPosition(x, xs[i]!);
    const ay = axisPosition(y, ys[i]!);
    return ax === null || ay === null ? [] : [{ run, cx: px(ax), cy: py(ay), kept: kept[i]!, value: ys[i]! }];
  });
  dots.sort((a, b) => Number(a.kept) - Number(b.kept));
  return (
    <div className="sweep-scatter" ref={boxRef}>
      <svg width={width} height={HEIGHT} role="img" aria-label={`${y.label} against ${x.label}, ${dots.length} runs`}>
        <line x1={PAD.left} x2={PAD.left} y1={PAD.top} y2={PAD.top + plotH} stroke="var(--muted)" />
        <line x1={PAD.left} x2={PAD.left + plotW} y1={PAD.top + plotH} y2={PAD.top + plotH} stroke="var(--muted)" />
        {xTicks.map((t) => (
          <text key={t.text} x={px(t.at)} y={PAD.top + plotH + 14} textAnchor="middle" className="sweep-tick">
            {t.text}
          </text>
        ))}
        <text x={PAD.left + plotW / 2} y={HEIGHT - 4} textAnchor="middle" className="sweep-axis-title">
          {x.label}
        </text>
        {y.kind === 'number' &&
          yTicks.map((v) => (
            <text key={v} x={PAD.left - 4} y={py(axisPosition(y, v)!) + 4} textAnchor="end" className="sweep-tick">
              {showAxisValue(v)}
            </text>
          ))}
        {dots.map((d) => (
          <circle
            key={d.run.id}
            cx={d.cx}
            cy={d.cy}
            r={4}
            fill={d.kept ? runStyle(d.run.number).color : 'var(--border)'}
            fillOpacity={d.kept ? 0.9 : 0.7}
          >
            <title>{`${d.run.name}: ${showAxisValue(d.value)}`}</title>
          </circle>
        ))}
      </svg>
    </div>
  );
}
