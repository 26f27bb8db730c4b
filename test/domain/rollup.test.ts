import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_ROLLUP_LEVEL,
  mergeNodes,
  nodeOfPoints,
  samplingLevel,
  tileBound,
  tileRange,
  topLevel,
  widthOf,
} from '../../src/domain/rollup.js';

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
          // Plain comparisons per tile (a range holds up to ~60,000 tiles; an expect() per
          // check made this the slowest unit test), the first broken one reported.
          let x = from;
          let broken: string | null = null;
          for (const t of tiles) {
            const w = t.level >= 0 ? widthOf(t.level) : 0;
            const ok =
              t.from === x &&
              t.level <= level &&
              (t.level >= 0
                ? t.from % w === 0 && t.to - t.from + 1 === w && t.bucket === t.from / w
                : Math.floor(t.from / 16) === Math.floor(t.to / 16));
            if (!ok) {
              broken = `tile ${JSON.stringify(t)} after step ${x - 1}`;
              break;
            }
            x = t.to + 1;
          }
          expect(broken).toBeNull();
          expect(x).toBe(to + 1);
          expect(tiles.length).toBeLessThanOrEqual(Math.ceil((len + 1) / widthOf(level)) + 6 * (level + 1) + 2);
          expect(tiles.length).toBeLessThanOrEqual(tileBound(from, to, level));
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
  });

  it('give every step the API accepts a top bucket 0 that covers it', () => {
    expect(topLevel(Number.MAX_SAFE_INTEGER)).toBe(MAX_ROLLUP_LEVEL);
    expect(widthOf(MAX_ROLLUP_LEVEL)).toBeGreaterThan(Number.MAX_SAFE_INTEGER);
    expect(widthOf(topLevel(1e15))).toBeGreaterThan(1e15);
  });
});

const HUGE = Number.MAX_SAFE_INTEGER;

/** The tiles a sampled read of [from, to] in `groups` buckets walks on a series whose top step is maxStep. */
function sampledTiles(from: number, to: number, groups: number, maxStep: number) {
  const level = samplingLevel(from, to, to - from + 1, groups, topLevel(maxStep));
  expect(level, 'rollups deep enough for the range').not.toBeNull();
  return tileRange(from, to, level ?? 0);
}

describe('sampled reads of huge step ranges', () => {
  it('tile 0..2^53−1 into a few thousand buckets at most, covering it exactly', () => {
    for (const groups of [1, 999, 4999]) {
      const tiles = sampledTiles(0, HUGE, groups, HUGE);
      expect(tiles[0]?.from).toBe(0);
      expect(tiles[tiles.length - 1]?.to).toBe(HUGE);
      expect(tiles.length).toBeLessThanOrEqual(4 * groups + 158);
      expect(tiles.length).toBeGreaterThanOrEqual(Math.min(groups, 2));
    }
  });

  it('tile any range of steps up to 2^53−1 in O(buckets) tiles, aligned and contiguous', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: HUGE }),
        fc.integer({ min: 0, max: HUGE }),
        fc.integer({ min: 1, max: 4999 }),
        fc.integer({ min: 0, max: HUGE }),
        (a, b, groups, extra) => {
          const [from, to] = [Math.min(a, b), Math.max(a, b)];
          const tiles = sampledTiles(from, to, groups, Math.max(to, extra));
          expect(tiles.length).toBeLessThanOrEqual(4 * groups + 158);
          let x = from;
          let aligned = true;
          for (const t of tiles) {
            aligned &&= t.from === x && (t.level < 0 || t.from % widthOf(t.level) === 0);
            x = t.to + 1;
          }
          expect(aligned).toBe(true);
          expect(x).toBe(to + 1);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('refuse rollups that stop at level 11 for a span they would tile into millions of buckets', () => {
    expect(samplingLevel(0, HUGE, HUGE + 1, 999, 11)).toBeNull();
    expect(samplingLevel(0, 1e15, 1e15 + 1, 999, 11)).toBeNull();
    // A narrow window near 2^53 still reads from such rollups.
    expect(samplingLevel(HUGE - 100_000, HUGE, 100_001, 999, 11)).not.toBeNull();
  });
});
