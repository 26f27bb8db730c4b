import uPlot from 'uplot';
import { describe, expect, it } from 'vitest';
import { alignOnColumns } from './chart-columns';

type Table = (number | null | undefined)[][];

/** A run's table of `n` points at x = offset, offset + 1, ... with `value(i)`. */
const table = (n: number, offset: number, value: (i: number) => number | null): Table => [
  Array.from({ length: n }, (_, i) => offset + i),
  Array.from({ length: n }, (_, i) => value(i)),
];

/** The defined (x, y) points of series `s` of aligned data. */
const pointsOf = (data: uPlot.AlignedData, s: number): [number, number | null][] =>
  Array.from(data[0] as ArrayLike<number>).flatMap((x, i) => {
    const y = (data[s] as ArrayLike<number | null | undefined>)[i];
    return y === undefined ? [] : [[x, y] as [number, number | null]];
  });

describe('alignOnColumns', () => {
  it('keeps each run’s first, last, lowest and highest point of a column, in order', () => {
    const wave = (i: number) => [5, 1, 9, 3, 7][i % 5]!;
    const data = alignOnColumns([table(100, 0, wave), table(100, 0.5, wave)] as uPlot.AlignedData[], 10)!;
    expect(data).not.toBeNull();
    expect(data[0]).toHaveLength(50);
    const first = pointsOf(data, 1);
    // Column 0 holds x 0..9.95 of run 1: values 5,1,9,3,7,5,1,9,3,7 → first 5, lowest 1, highest 9, last 7.
    expect(first.slice(0, 4).map(([, y]) => y)).toEqual([5, 1, 9, 7]);
    expect(first).toHaveLength(40);
    // Every x is inside its column, ascending, from the runs' first x to their last.
    expect([...data[0]].every((x, i, all) => i === 0 || x > all[i - 1]!)).toBe(true);
    expect([data[0][0], data[0].at(-1)]).toEqual([0, 99.5]);
  });

  it('keeps a gap (null) so the line still breaks there', () => {
    const data = alignOnColumns(
      [table(50, 0, (i) => (i === 7 ? null : i)), table(50, 0, (i) => i)] as uPlot.AlignedData[],
      5,
    )!;
    expect(pointsOf(data, 1).filter(([, y]) => y === null)).toHaveLength(1);
    expect(pointsOf(data, 2).filter(([, y]) => y === null)).toHaveLength(0);
  });

  it('answers null when the grid would not be smaller than the points', () => {
    const few = [table(10, 0, (i) => i), table(10, 0, (i) => i)] as uPlot.AlignedData[];
    expect(alignOnColumns(few, 10)).toBeNull();
    expect(alignOnColumns([table(1, 0, () => 1), table(1, 0, () => 2)] as uPlot.AlignedData[], 1)).toBeNull();
  });

  it('draws the same extremes as uPlot.join of the same runs', () => {
    const runs = Array.from({ length: 20 }, (_, r) =>
      table(300, r * 0.37, (i) => Math.sin(i / 7 + r) * (r + 1)),
    ) as uPlot.AlignedData[];
    const joined = uPlot.join(runs);
    const gridded = alignOnColumns(runs, 100)!;
    expect(gridded[0].length).toBeLessThan(joined[0].length);
    for (let s = 1; s <= runs.length; s++) {
      const ys = (d: uPlot.AlignedData) => pointsOf(d, s).map(([, y]) => y as number);
      expect(Math.min(...ys(gridded))).toBe(Math.min(...ys(joined)));
      expect(Math.max(...ys(gridded))).toBe(Math.max(...ys(joined)));
      expect(ys(gridded)[0]).toBe(ys(joined)[0]);
      expect(ys(gridded).at(-1)).toBe(ys(joined).at(-1));
    }
  });
});
