import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { prng } from '../../src/domain/prng.js';
import { samplePoints } from '../../src/domain/sampling.js';

interface Point {
  step: number;
  value: number | null;
}

const noisySine = (n: number, seed: number): Point[] => {
  const random = prng(seed);
  return Array.from({ length: n }, (_, i) => ({
    step: i * 3,
    value: Math.sin(i / 500) + (random() - 0.5) * 0.2,
  }));
};
const steps = (points: readonly Point[]): number[] => points.map((p) => p.step);
const isAscending = (xs: readonly number[]): boolean => xs.every((x, i) => i === 0 || x > (xs[i - 1] ?? x));

describe('samplePoints on a long noisy series', () => {
  const random = prng(7);
  const series = noisySine(200_000, 11);
  const spikeAt = 1 + Math.floor(random() * (series.length - 2));
  const dipAt = 1 + Math.floor(random() * (series.length - 2));
  series[spikeAt] = { step: spikeAt * 3, value: 50 };
  series[dipAt] = { step: dipAt * 3, value: -50 };
  const sampled = samplePoints(series, 500);

  it('returns at most the limit, in step order, and uses the whole budget', () => {
    expect(sampled.length).toBeLessThanOrEqual(500);
    expect(sampled.length).toBeGreaterThanOrEqual(490);
    expect(isAscending(steps(sampled))).toBe(true);
  });

  it('keeps the planted spike, the planted dip, the first and the last point', () => {
    for (const kept of [series[spikeAt], series[dipAt], series[0], series.at(-1)]) {
      expect(sampled).toContain(kept);
    }
  });

  it('returns the original point objects, not copies', () => {
    const originals = new Set<Point>(series);
    expect(sampled.every((p) => originals.has(p))).toBe(true);
  });

  it('gives identical results on a second call', () => {
    expect(samplePoints(series, 500)).toEqual(sampled);
    expect(steps(samplePoints(series, 500))).toEqual(steps(sampled));
  });

  it('handles a million points', () => {
    const big = noisySine(1_000_000, 3);
    const out = samplePoints(big, 10_000);
    expect(out.length).toBeLessThanOrEqual(10_000);
    expect(out[0]).toBe(big[0]);
    expect(out.at(-1)).toBe(big.at(-1));
  });
});

describe('samplePoints on small inputs and small limits', () => {
  const five: Point[] = [0, 1, 2, 3, 4].map((step) => ({ step, value: step * step }));

  it.each([5, 6, 10_000])('returns a copy of a series that fits within limit %i', (limit) => {
    const out = samplePoints(five, limit);
    expect(out).toEqual(five);
    expect(out).not.toBe(five);
  });

  it.each([
    { limit: 1, kept: [0] },
    { limit: 2, kept: [0, 4] },
    { limit: 3, kept: [0, 4] },
    { limit: 4, kept: [0, 1, 3, 4] },
  ])('keeps steps $kept for limit $limit', ({ limit, kept }) => {
    expect(steps(samplePoints(five, limit))).toEqual(kept);
  });

  it('returns an empty list for an empty series', () => {
    expect(samplePoints([], 3)).toEqual([]);
  });

  it.each([0, -1, 2.5, Number.NaN])('refuses limit %s with a bad request', (limit) => {
    expect(() => samplePoints(five, limit)).toThrow(AppError);
  });

  it('ignores nulls for min and max, breaks ties by the lowest step and keeps the first point of an all-null bucket', () => {
    const points: Point[] = [
      { step: 0, value: 0 },
      { step: 1, value: null },
      { step: 2, value: 5 },
      { step: 3, value: 5 },
      { step: 4, value: null },
      { step: 5, value: 1 },
      { step: 6, value: null },
      { step: 7, value: null },
      { step: 8, value: 0 },
    ];
    // limit 6 → 2 buckets over steps 0..8: steps 1–3 and 4–7.
    expect(steps(samplePoints(points, 6))).toEqual([0, 2, 5, 8]);
    const nulls = points.map((p, i) => (i === 0 || i === 8 ? p : { ...p, value: null }));
    expect(steps(samplePoints(nulls, 6))).toEqual([0, 1, 4, 8]);
  });
});

/** Brute-force reference: group interior points by bucket, keep min and max of each. */
function reference(points: readonly Point[], limit: number): number[] {
  const first = points[0] as Point;
  const last = points.at(-1) as Point;
  const buckets = Math.floor((limit - 2) / 2);
  const span = last.step - first.step;
  const keep = new Set([first.step, last.step]);
  for (let b = 0; b < buckets; b++) {
    const inBucket = points
      .slice(1, -1)
      .filter((p) => Math.min(buckets - 1, Math.floor(((p.step - first.step) * buckets) / span)) === b);
    const valued = inBucket.filter((p): p is { step: number; value: number } => p.value !== null);
    if (valued.length === 0 && inBucket[0]) keep.add(inBucket[0].step);
    const byValue = (pick: (a: number, b: number) => boolean) =>
      valued.reduce<Point | undefined>((best, p) => (best && !pick(p.value, best.value ?? 0) ? best : p), undefined);
    for (const p of [byValue((a, b) => a < b), byValue((a, b) => a > b)]) if (p) keep.add(p.step);
  }
  return [...keep].sort((a, b) => a - b);
}

describe('samplePoints against a brute-force reference', () => {
  it('keeps exactly the first, last, and each bucket minimum and maximum', () => {
    const series = fc
      .uniqueArray(fc.integer({ min: 0, max: 10_000 }), { minLength: 5, maxLength: 300 })
      .chain((rawSteps) =>
        fc.tuple(
          fc.constant([...rawSteps].sort((a, b) => a - b)),
          fc.array(fc.option(fc.integer({ min: -5, max: 5 }), { nil: null }), {
            minLength: rawSteps.length,
            maxLength: rawSteps.length,
          }),
        ),
      )
      .map(([sorted, values]) => sorted.map((step, i) => ({ step, value: values[i] ?? null })));
    fc.assert(
      fc.property(series, fc.integer({ min: 4, max: 60 }), (points, limit) => {
        const out = samplePoints(points, limit);
        if (points.length <= limit) {
          expect(out).toEqual(points);
        } else {
          expect(out.length).toBeLessThanOrEqual(limit);
          expect(steps(out)).toEqual(reference(points, limit));
        }
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});
