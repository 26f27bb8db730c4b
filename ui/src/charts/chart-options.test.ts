import type uPlot from 'uplot';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatValue } from '../format';
import { buildModel, type ChartModel, type ModelInput } from './chart-model';
import { chartOptions, SYNC_KEY, THIN_LINES_PAST, type ChartHandles } from './chart-options';
import type { ChartTheme } from './chart-theme';

const theme: ChartTheme = {
  text: '#000',
  muted: '#777',
  grid: '#ddd',
  surface: '#fff',
  danger: '#f00',
  font: '11px Inter, sans-serif',
};

function run(runId: number, steps: number[], values: (number | null)[], more: Partial<ModelInput> = {}): ModelInput {
  return {
    runId,
    name: `run-${runId}`,
    color: `#00${runId}`,
    series: {
      steps,
      times: steps.map((s) => s * 1000),
      values,
      flags: values.map(() => undefined),
      appended: 0,
      total: steps.length,
    },
    forkStep: null,
    startMs: null,
    ...more,
  };
}

function handles(model: ChartModel, held: [number, number] | null = null): ChartHandles {
  return { model: () => model, xRange: () => held, onSelect: vi.fn(), onReset: vi.fn(), onCursor: vi.fn() };
}

const options = (model: ChartModel, more: { xMode?: 'step' | 'relative' | 'wall'; logScale?: boolean } = {}) =>
  chartOptions(model, { width: 400, height: 200, xMode: 'step', logScale: false, theme, ...more }, handles(model));

type Fn = (...args: unknown[]) => unknown;
const call = (f: unknown, ...args: unknown[]): unknown => (f as Fn)(...args);
const noU = null as unknown as uPlot;

describe('chartOptions: series', () => {
  it('has the x series first, then one series per line with the run name and colour', () => {
    const model = buildModel([run(1, [0, 1], [1, 2]), run(2, [0, 1], [3, 4])], {
      xMode: 'step',
      smoothing: 0,
      logScale: false,
    });
    const o = options(model);
    expect(o.series).toHaveLength(3);
    expect(o.series[0]).toEqual({});
    expect(o.series.slice(1).map((s) => [s.label, s.stroke])).toEqual([
      ['run-1', '#001'],
      ['run-2', '#002'],
    ]);
    expect(o.width).toBe(400);
    expect(o.height).toBe(200);
  });

  it('draws a faint raw line under a bolder smoothed one, and fades a fork’s inherited part', () => {
    const model = buildModel([run(1, [0, 1, 2], [1, 2, 3], { forkStep: 1 })], {
      xMode: 'step',
      smoothing: 0.5,
      logScale: false,
    });
    const styles = options(model)
      .series.slice(1)
      .map((s) => ({ width: s.width, alpha: s.alpha, points: s.points }));
    expect(styles).toEqual([
      { width: 1, alpha: 0.15, points: { show: false } }, // raw, inherited
      { width: 1, alpha: 0.3, points: { show: false } }, // raw, own
      { width: 1.75, alpha: 0.4, points: { show: false } }, // smooth, inherited
      { width: 1.75, alpha: 1, points: { size: 4 } }, // smooth, own
    ]);
  });

  it('draws every line 1 px wide past THIN_LINES_PAST runs (10), and 1.5 px up to it', () => {
    const runs = (n: number) => Array.from({ length: n }, (_, i) => run(i + 1, [0, 1], [1, 2]));
    const widths = (n: number) =>
      options(buildModel(runs(n), { xMode: 'step', smoothing: 0, logScale: false }))
        .series.slice(1)
        .map((s) => s.width);
    expect(new Set(widths(THIN_LINES_PAST))).toEqual(new Set([1.5]));
    expect(new Set(widths(THIN_LINES_PAST + 1))).toEqual(new Set([1]));
    expect(THIN_LINES_PAST).toBe(10);
  });

  it('formats a series value as the tooltip does', () => {
    const model = buildModel([run(1, [0], [1])], { xMode: 'step', smoothing: 0, logScale: false });
    const value = options(model).series[1]!.value;
    expect(call(value, noU, 1234567)).toBe(formatValue(1234567));
    expect(call(value, noU, null)).toBe('—');
  });
});

describe('chartOptions: scales and axes', () => {
  const model = buildModel([run(1, [0, 1], [1, 2])], { xMode: 'step', smoothing: 0, logScale: false });

  it('uses a time scale only on the wall-clock axis, and a log10 y scale when asked', () => {
    expect(options(model).scales!.x!.time).toBe(false);
    expect(options(model, { xMode: 'wall' }).scales!.x!.time).toBe(true);
    expect(options(model).scales!.y).toEqual({});
    expect(options(model, { logScale: true }).scales!.y).toEqual({ distr: 3, log: 10 });
  });

  it('holds the zoomed x range, else fits the data, widening a single x and falling back on no data', () => {
    const range = (held: [number, number] | null) =>
      chartOptions(model, { width: 1, height: 1, xMode: 'step', logScale: false, theme }, handles(model, held)).scales!
        .x!.range;
    expect(call(range([5, 9]), noU, 0, 100)).toEqual([5, 9]);
    expect(call(range(null), noU, 2, 7)).toEqual([2, 7]);
    expect(call(range(null), noU, 3, 3)).toEqual([2, 4]);
    expect(call(range(null), noU, null, null)).toEqual([0, 1]);
    expect(call(range(null), noU, -Infinity, Infinity)).toEqual([0, 1]);
    expect(call(range(null), noU, NaN, 4)).toEqual([0, 1]);
  });

  it('labels steps compactly from ten thousand on, every label of the axis alike', () => {
    const values = options(model).axes![0]!.values;
    expect(call(values, noU, [0, 9_999, 10_000, 1_500_000, -20_000])).toEqual(['0', '10K', '10K', '1.5M', '-20K']);
    expect(call(values, noU, [0, 2_500, 7_500, 10_000])).toEqual(['0', '2.5K', '7.5K', '10K']);
    expect(call(values, noU, [0, 2_500, 9_999])).toEqual(['0', '2500', '9999']);
  });

  it('labels relative time as durations, with a minus sign before the start', () => {
    const values = options(model, { xMode: 'relative' }).axes![0]!.values;
    expect(call(values, noU, [0, 90, 3_725, -90])).toEqual(['0s', '1m 30s', '1h 02m', '−1m 30s']);
  });

  it('leaves wall-clock labels to uPlot', () => {
    expect(options(model, { xMode: 'wall' }).axes![0]!.values).toBeUndefined();
  });

  it('labels y values as values, leaving a log axis’ minor ticks blank', () => {
    const values = options(model).axes![1]!.values;
    expect(call(values, noU, [0.5, null, 2e7])).toEqual(['0.5', '', formatValue(2e7)]);
  });

  it('sizes the y axis by its longest label, at least 36 px', () => {
    const size = options(model).axes![1]!.size;
    expect(call(size, noU, null)).toBe(40);
    expect(call(size, noU, ['1', '2'])).toBe(36);
    expect(call(size, noU, ['1', '1.23457e+10'])).toBe(Math.ceil(11 * 6.6) + 16);
  });
});

describe('chartOptions: cursor and hooks', () => {
  const model = buildModel([run(1, [0, 1], [1, 2])], { xMode: 'step', smoothing: 0, logScale: false });

  it('syncs only the crosshair across the page’s charts', () => {
    const sync = options(model).cursor!.sync!;
    expect(sync.key).toBe(SYNC_KEY);
    const pub = sync.filters!.pub!;
    for (const type of ['mousemove', 'mouseleave', 'mouseenter']) expect(call(pub, type)).toBe(true);
    for (const type of ['mousedown', 'mouseup', 'dblclick']) expect(call(pub, type)).toBe(false);
    expect(options(model).cursor!.drag).toEqual({ x: true, y: false, setScale: false });
  });

  it('hands an x drag of 3 px or more to the caller as a zoom and clears the selection', () => {
    const h = handles(model);
    const o = chartOptions(model, { width: 400, height: 200, xMode: 'step', logScale: false, theme }, h);
    const setSelect = vi.fn();
    const u = (width: number) =>
      ({ select: { left: 100, width }, posToVal: (px: number) => px / 10, setSelect }) as unknown as uPlot;
    o.hooks!.setSelect![0]!(u(2));
    expect(h.onSelect).not.toHaveBeenCalled();
    o.hooks!.setSelect![0]!(u(50));
    expect(h.onSelect).toHaveBeenCalledWith(10, 15);
    expect(setSelect).toHaveBeenCalledWith({ left: 0, top: 0, width: 0, height: 0 }, false);
  });

  it('passes the cursor on and resets the zoom on a double-click', () => {
    const h = handles(model);
    const o = chartOptions(model, { width: 400, height: 200, xMode: 'step', logScale: false, theme }, h);
    const listeners: Record<string, () => void> = {};
    const u = {
      over: { addEventListener: (type: string, f: () => void) => (listeners[type] = f) },
    } as unknown as uPlot;
    o.hooks!.setCursor![0]!(u);
    expect(h.onCursor).toHaveBeenCalledWith(u);
    o.hooks!.ready![0]!(u);
    expect(h.onReset).not.toHaveBeenCalled();
    listeners.dblclick!();
    expect(h.onReset).toHaveBeenCalledOnce();
  });
});

describe('chartOptions: drawing markers and fork lines', () => {
  beforeEach(() => vi.stubGlobal('devicePixelRatio', 1));
  afterEach(() => vi.unstubAllGlobals());

  /** A canvas context that records the calls of interest. */
  function fakeU() {
    const calls: string[] = [];
    const ctx = new Proxy(
      {},
      {
        get: (_t, name: string) => {
          if (['save', 'restore', 'setLineDash', 'beginPath', 'closePath', 'fill', 'stroke'].includes(name)) {
            return () => calls.push(name);
          }
          if (name === 'moveTo' || name === 'lineTo') return (x: number, y: number) => calls.push(`${name} ${x},${y}`);
          if (name === 'fillText') return (t: string) => calls.push(`text ${t}`);
          return undefined;
        },
        set: () => true,
      },
    );
    // x = value·10 px from the left edge at 10; the plot is 100 px wide and 50 high from top 5.
    const u = { bbox: { left: 10, top: 5, width: 100, height: 50 }, ctx, valToPos: (v: number) => 10 + v * 10 };
    return { u: u as unknown as uPlot, calls };
  }

  const draw = (model: ChartModel, u: uPlot) => options(model).hooks!.draw![0]!(u);

  it('marks +Infinity at the top, -Infinity at the bottom and NaN as a diamond, inside the plot only', () => {
    const input = run(1, [0, 1, 2, 50], [null, null, null, null]);
    input.series.flags = ['Infinity', '-Infinity', 'NaN', 'NaN'];
    const model = buildModel([input], { xMode: 'step', smoothing: 0, logScale: false });
    const { u, calls } = fakeU();
    draw(model, u);
    const shapes = calls.filter((c) => c.startsWith('moveTo') || c.startsWith('lineTo'));
    expect(shapes).toEqual([
      // ▲ at x 10, its tip at the top edge (top + 1).
      'moveTo 6,14',
      'lineTo 14,14',
      'lineTo 10,6',
      // ▼ at x 20, its tip at the bottom edge (top + height − 1).
      'moveTo 16,46',
      'lineTo 24,46',
      'lineTo 20,54',
      // ◆ at x 30, centred r + 1 below the top.
      'moveTo 30,6',
      'lineTo 34,10',
      'lineTo 30,14',
      'lineTo 26,10',
      // step 50 (x 510) is outside the plot: no marker.
    ]);
    expect(calls.filter((c) => c === 'fill')).toHaveLength(3);
  });

  it('draws a labelled dotted line where a fork’s own part starts', () => {
    const model = buildModel([run(1, [0, 1, 2, 3], [1, 2, 3, 4], { forkStep: 2 })], {
      xMode: 'step',
      smoothing: 0,
      logScale: false,
    });
    const { u, calls } = fakeU();
    draw(model, u);
    expect(calls).toContain('setLineDash');
    expect(calls).toContain('moveTo 30.5,5');
    expect(calls).toContain('lineTo 30.5,55');
    expect(calls).toContain('text fork');
  });

  it('draws no fork line for a run that is not a fork, nor outside the plot', () => {
    const plainModel = buildModel([run(1, [0, 1], [1, 2])], { xMode: 'step', smoothing: 0, logScale: false });
    const far = buildModel([run(1, [0, 20, 30], [1, 2, 3], { forkStep: 20 })], {
      xMode: 'step',
      smoothing: 0,
      logScale: false,
    });
    for (const model of [plainModel, far]) {
      const { u, calls } = fakeU();
      draw(model, u);
      expect(calls).not.toContain('text fork');
    }
  });
});
