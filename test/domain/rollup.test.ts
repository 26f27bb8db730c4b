import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeNodes, nodeOfPoints, tileRange, topLevel, widthOf } from '../../src/domain/rollup.js';

describe('tileRange', () => {
  it('covers the range exactly, left to right, with aligned buckets no higher than asked', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e7 }),
        fc.integer({ min: 0, max: 1e6 }),
        fc.integer({ min: 0, max: 6 }),
        (from, len, level) => {
          const to = from + len;
          const tiles = tileRange(from, to, level);
          let x = from;
          for (const t of tiles) {
            expect(t.from).toBe(x);
            expect(t.level).toBeLessThanOrEqual(level);
            if (t.level >= 0) {
              expect(t.from % widthOf(t.level)).toBe(0);
              expect(t.to - t.from + 1).toBe(widthOf(t.level));
              expect(t.bucket).toBe(t.from / widthOf(t.level));
            } else expect(Math.floor(t.from / 16)).toBe(Math.floor(t.to / 16));
            x = t.to + 1;
          }
          expect(x).toBe(to + 1);
          expect(tiles.length).toBeLessThanOrEqual(Math.ceil((len + 1) / widthOf(level)) + 6 * (level + 1) + 2);
        },
      ),
    );
  });

  it('is empty for an empty range', () => {
    expect(tileRange(5, 4, 3)).toEqual([]);
  });
});

describe('rollup nodes', () => {
  it('merge to the node of the union, with ties of the minimum and maximum at the lowest step', () => {
    const points = [
      { step: 3, value: 1 },
      { step: 5, value: -2 },
      { step: 8, value: null },
      { step: 9, value: -2 },
      { step: 12, value: 7 },
      { step: 14, value: 7 },
    ];
    const whole = nodeOfPoints(points);
    const merged = mergeNodes(nodeOfPoints(points.slice(3)), nodeOfPoints(points.slice(0, 3)));
    expect(merged).toMatchObject({ points: 6, firstStep: 3, lastStep: 14, minStep: 5, maxStep: 12 });
    expect(whole).toMatchObject({ points: 6, firstStep: 3, lastStep: 14, minStep: 5, maxStep: 12 });
    expect(merged.moments.count).toBe(5);
    expect(merged.moments.mean + (merged.moments.meanLo ?? 0)).toBeCloseTo(11 / 5, 12);
  });

  it('keep no minimum or maximum when every value is non-finite', () => {
    expect(nodeOfPoints([{ step: 1, value: null }])).toMatchObject({ points: 1, minStep: null, maxStep: null });
  });

  it('need a higher top level as the steps grow', () => {
    expect(topLevel(0)).toBe(0);
    expect(topLevel(15)).toBe(0);
    expect(topLevel(16)).toBe(1);
    expect(topLevel(1_000_000)).toBe(widthOf(7) > 1_000_000 ? 7 : 8);
    expect(topLevel(Number.MAX_SAFE_INTEGER)).toBe(11);
  });
});
