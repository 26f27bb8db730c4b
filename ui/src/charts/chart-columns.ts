/**
 * The aligned data of a chart of many runs on a grid of columns instead of the union of the
 * runs' x values. uPlot draws every run from one x array, so 100 runs of 300 sampled points
 * at different steps made 100 arrays of ~14,000 entries, nearly all empty, that uPlot joins,
 * scans for the y range and walks to draw, on every chart. On the grid each run keeps, in
 * each column, the points its lines need there (each line's first and last point, lowest and
 * highest, and first gap) in their order, at fixed slots of the column. A column is at most
 * half a pixel wide, so the lines drawn stay the same at the pixel; the model's traces keep
 * the exact points (tooltip values, markers, CSV).
 */
import type uPlot from 'uplot';

/** Entries a column holds per line of a run: first, last, lowest, highest, first gap. */
const SLOTS_PER_LINE = 5;

type Column = (number | null | undefined)[];

/**
 * `tables` (each run's [xs ascending, ...lines]) aligned on `columns` columns over their x
 * extent; null when that would not be smaller than their points (then join them as they are)
 * or when the extent is empty or not finite.
 */
export function alignOnColumns(tables: readonly uPlot.AlignedData[], columns: number): uPlot.AlignedData | null {
  let lo = Infinity;
  let hi = -Infinity;
  let points = 0;
  let lines = 1;
  for (const t of tables) {
    const xs = t[0];
    if (xs.length === 0) continue;
    lo = Math.min(lo, xs[0]!);
    hi = Math.max(hi, xs[xs.length - 1]!);
    points += xs.length;
    lines = Math.max(lines, t.length - 1);
  }
  const slots = SLOTS_PER_LINE * lines;
  const size = columns * slots;
  if (!(hi > lo) || !Number.isFinite(lo) || !Number.isFinite(hi) || columns < 1 || points <= size) return null;
  const width = (hi - lo) / columns;
  const grid = new Array<number>(size);
  for (let c = 0; c < columns; c++) {
    for (let s = 0; s < slots; s++) grid[c * slots + s] = lo + width * (c + (s + 0.5) / slots);
  }
  // The grid spans the runs' extent exactly, so the x axis fits it as it fits the runs' own points.
  grid[0] = lo;
  grid[size - 1] = hi;
  const data: Column[] = [grid];
  for (const t of tables) {
    const xs = t[0];
    const ys = t.slice(1) as Column[];
    const outs = ys.map(() => new Array<number | null | undefined>(size));
    let i0 = 0;
    while (i0 < xs.length) {
      const c = Math.min(columns - 1, Math.floor((xs[i0]! - lo) / width));
      let i1 = i0 + 1;
      while (i1 < xs.length && Math.min(columns - 1, Math.floor((xs[i1]! - lo) / width)) === c) i1++;
      const kept = keptIndices(ys, i0, i1);
      kept.forEach((i, s) => {
        for (let l = 0; l < ys.length; l++) outs[l]![c * slots + s] = ys[l]![i];
      });
      i0 = i1;
    }
    data.push(...outs);
  }
  return data as uPlot.AlignedData;
}

/** The indices in [i0, i1) that the lines need drawn, ascending: per line its first, last, lowest, highest and first gap. */
function keptIndices(ys: readonly Column[], i0: number, i1: number): number[] {
  const kept = new Set<number>();
  for (const y of ys) {
    let first = -1;
    let last = -1;
    let low = -1;
    let high = -1;
    let gap = -1;
    for (let i = i0; i < i1; i++) {
      const v = y[i];
      if (v === undefined) continue;
      if (first < 0) first = i;
      last = i;
      if (v === null) {
        if (gap < 0) gap = i;
        continue;
      }
      if (low < 0 || v < y[low]!) low = i;
      if (high < 0 || v > y[high]!) high = i;
    }
    for (const i of [first, last, low, high, gap]) if (i >= 0) kept.add(i);
  }
  return [...kept].sort((a, b) => a - b);
}
