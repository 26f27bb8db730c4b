import { describe, expect, it } from 'vitest';
import { prng } from '@server/domain/prng';
import { correlation, forestImportance } from './importance';

describe('correlation', () => {
  it('is 1 for a rising line, -1 for a falling one and null without spread', () => {
    expect(correlation([1, 2, 3, 4], [2, 4, 6, 8])).toBeCloseTo(1, 12);
    expect(correlation([1, 2, 3, 4], [8, 6, 4, 2])).toBeCloseTo(-1, 12);
    expect(correlation([1, 1, 1, 1], [1, 2, 3, 4])).toBeNull();
  });

  it('leaves out pairs with a missing value and needs three pairs', () => {
    expect(correlation([1, NaN, 3, 4], [1, 100, 3, 4])).toBeCloseTo(1, 12);
    expect(correlation([1, NaN], [1, 2])).toBeNull();
  });
});

describe('forestImportance', () => {
  // y depends on the first feature only; the second is noise.
  const random = prng(7);
  const a = Array.from({ length: 60 }, () => random());
  const noise = Array.from({ length: 60 }, () => random());
  const y = a.map((v) => 3 * v + 0.01 * random());

  it('gives the feature that decides the metric nearly all the importance, summing to 1', () => {
    const imp = forestImportance([a, noise], y);
    expect(imp[0]! + imp[1]!).toBeCloseTo(1, 12);
    expect(imp[0]).toBeGreaterThan(0.8);
  });

  it('is the same for the same seed', () => {
    expect(forestImportance([a, noise], y, { seed: 3 })).toEqual(forestImportance([a, noise], y, { seed: 3 }));
  });

  it('is all zero when the metric does not vary or too few runs have it', () => {
    expect(
      forestImportance(
        [a],
        a.map(() => 1),
      ),
    ).toEqual([0]);
    expect(forestImportance([[1, 2]], [1, NaN])).toEqual([0]);
  });

  it('never splits on a missing value', () => {
    const missing = a.map(() => NaN);
    const imp = forestImportance([missing, a], y);
    expect(imp[0]).toBe(0);
    expect(imp[1]).toBeCloseTo(1, 12);
  });
});
