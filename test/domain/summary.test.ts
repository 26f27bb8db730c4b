import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  emptyMoments,
  mergeMoments,
  momentsOf,
  pushValue,
  stddev,
  variance,
  type Moments,
} from '../../src/domain/summary.js';
import { prng } from '../../src/domain/prng.js';

const pushAll = (xs: readonly number[], start: Moments = emptyMoments()): Moments => xs.reduce(pushValue, start);
const relative = (a: number, b: number): number => Math.abs(a - b) / Math.abs(b);

describe('small series', () => {
  it.each([
    { label: 'the textbook series', xs: [2, 4, 4, 4, 5, 5, 7, 9], mean: 5, varc: 4, sd: 2 },
    { label: 'a single value', xs: [3.5], mean: 3.5, varc: 0, sd: 0 },
    {
      label: 'non-finite values mixed in',
      xs: [1, NaN, 3, Infinity, -Infinity],
      mean: 2,
      varc: 1,
      sd: 1,
    },
    {
      label: 'a large offset',
      xs: [1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16],
      mean: 1e9 + 10,
      varc: 22.5,
      sd: Math.sqrt(22.5),
    },
  ])('gives the mean, variance and stddev of $label by every method', ({ xs, mean, varc, sd }) => {
    const halves = mergeMoments(momentsOf(xs.slice(0, 2)), pushAll(xs.slice(2)));
    for (const m of [pushAll(xs), momentsOf(xs), halves]) {
      expect(m.mean).toBeCloseTo(mean, 9);
      expect(variance(m)).toBeCloseTo(varc, 9);
      expect(stddev(m)).toBeCloseTo(sd, 9);
      expect(m.count).toBe(xs.filter(Number.isFinite).length);
    }
  });

  it('reports no variance, no stddev and empty bounds when there are no finite values', () => {
    for (const m of [emptyMoments(), momentsOf([NaN, Infinity]), pushAll([NaN])]) {
      expect(m).toMatchObject({ count: 0, min: Infinity, max: -Infinity });
      expect(variance(m)).toBeNull();
      expect(stddev(m)).toBeNull();
    }
  });

  it('tracks min and max and leaves its inputs unchanged', () => {
    const a = momentsOf([5, -2]);
    const snapshot = { ...a };
    const b = pushValue(a, 9);
    expect(mergeMoments(b, momentsOf([-7]))).toMatchObject({ count: 4, min: -7, max: 9 });
    expect(a).toEqual(snapshot);
  });

  it('accepts stored moments without meanLo', () => {
    const legacy = { count: 2, mean: 2, m2: 2, min: 1, max: 3 };
    expect(variance(mergeMoments(legacy, momentsOf([2])))).toBeCloseTo(2 / 3, 12);
    expect(variance(pushValue(legacy, 2))).toBeCloseTo(2 / 3, 12);
  });
});

describe('numerical stability near 1e9', () => {
  const random = prng(20261121);
  const xs = Array.from({ length: 100_000 }, () => 1e9 + random());
  const reference = momentsOf(xs);
  const refVariance = variance(reference) ?? Number.NaN;

  it('computes the two-pass variance within 1e-12 of the exact rational result', () => {
    // Every value is a multiple of 2^-23, so scaled values are exact integers.
    const scale = 2 ** 23;
    let sum = 0n;
    let squares = 0n;
    for (const x of xs) {
      const v = BigInt(x * scale);
      sum += v;
      squares += v * v;
    }
    const n = BigInt(xs.length);
    const scaledVar = ((n * squares - sum * sum) * 10n ** 18n) / (n * n * BigInt(scale) ** 2n);
    expect(relative(refVariance, Number(scaledVar) / 1e18)).toBeLessThan(1e-12);
  });

  it('pushes values one by one to within 1e-9 of the two-pass variance', () => {
    const pushed = pushAll(xs);
    expect(relative(variance(pushed) ?? 0, refVariance)).toBeLessThan(1e-9);
    expect(pushed).toMatchObject({
      count: reference.count,
      min: reference.min,
      max: reference.max,
    });
  });

  it('merges chunks of random sizes to within 1e-9 of the two-pass variance', () => {
    let byPush = emptyMoments();
    let byTwoPass = emptyMoments();
    for (let start = 0; start < xs.length;) {
      const end = Math.min(xs.length, start + 1 + Math.floor(random() * 5000));
      const chunk = xs.slice(start, end);
      byPush = mergeMoments(byPush, pushAll(chunk));
      byTwoPass = mergeMoments(byTwoPass, momentsOf(chunk));
      start = end;
    }
    expect(relative(variance(byPush) ?? 0, refVariance)).toBeLessThan(1e-9);
    expect(relative(variance(byTwoPass) ?? 0, refVariance)).toBeLessThan(1e-9);
    expect(byPush.count).toBe(xs.length);
  });
});

describe('merging arbitrary splits', () => {
  it('equals the two-pass result of the whole series', () => {
    const value = fc.oneof(
      fc.double({ min: -1e6, max: 1e6, noNaN: true }),
      fc.double({ min: 0, max: 1 }).map((x) => 1e9 + x),
      fc.constantFrom(NaN, Infinity, -Infinity),
    );
    const series = fc.array(value, { maxLength: 200 });
    fc.assert(
      fc.property(series, fc.array(fc.nat(), { maxLength: 6 }), (xs, cuts) => {
        const bounds = [...new Set(cuts.map((c) => c % (xs.length + 1)))].sort((a, b) => a - b);
        const pieces = [0, ...bounds].map((from, i) => xs.slice(from, bounds[i] ?? xs.length));
        const merged = pieces.reduce(
          (acc, piece, i) => mergeMoments(acc, i % 2 === 0 ? momentsOf(piece) : pushAll(piece)),
          emptyMoments(),
        );
        const whole = momentsOf(xs);
        const finite = xs.filter(Number.isFinite);
        const scale = Math.max(1, ...finite.map(Math.abs));
        expect(merged.count).toBe(whole.count);
        expect(merged.min).toBe(whole.min);
        expect(merged.max).toBe(whole.max);
        expect(Math.abs(merged.mean - whole.mean)).toBeLessThanOrEqual(1e-12 * scale);
        const tolerance = 1e-9 * whole.m2 + 1e-15 * finite.length * scale * scale;
        expect(Math.abs(merged.m2 - whole.m2)).toBeLessThanOrEqual(tolerance);
      }),
      { numRuns: 500, seed: 42 },
    );
  });
});
