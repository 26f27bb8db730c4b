/**
 * Numerically stable running statistics for metric summaries (docs/api.md §4.4): Welford updates,
 * Chan et al. merges, and a corrected two-pass reference. Non-finite values are ignored.
 * The mean is kept as a double-double (`mean + meanLo`): without it, rounding the mean at
 * every update costs ~1e-7 relative variance on data like 1e9 + noise; with it, ~1e-15.
 */

/** count, mean and m2 (sum of squared deviations from the mean), min and max. */
export interface Moments {
  count: number;
  mean: number;
  m2: number;
  min: number;
  max: number;
  /** Low-order correction of `mean` (true mean ≈ mean + meanLo). Absent = 0. Persist it to
   *  keep full precision across stored updates. */
  meanLo?: number;
}

/** Exact sum of a and b as [rounded sum, rounding error] (Knuth's TwoSum). */
function twoSum(a: number, b: number): [number, number] {
  const sum = a + b;
  const bPart = sum - a;
  return [sum, a - (sum - bPart) + (b - bPart)];
}

/** Returns `base + delta` (with `lo` correction) renormalised into mean and meanLo. */
function addToMean(base: number, lo: number, delta: number): { mean: number; meanLo: number } {
  const [sum, err] = twoSum(base, delta);
  const [mean, meanLo] = twoSum(sum, err + lo);
  return { mean, meanLo };
}

/** Returns the moments of no values: count 0, min Infinity, max -Infinity. */
export function emptyMoments(): Moments {
  return { count: 0, mean: 0, m2: 0, min: Infinity, max: -Infinity, meanLo: 0 };
}

/** Returns new moments with x added (Welford); a non-finite x returns an unchanged copy. */
export function pushValue(m: Moments, x: number): Moments {
  if (!Number.isFinite(x)) return { ...m };
  const count = m.count + 1;
  const lo = m.meanLo ?? 0;
  const delta = x - m.mean - lo;
  const next = count === 1 ? { mean: x, meanLo: 0 } : addToMean(m.mean, lo, delta / count);
  const m2 = m.m2 + delta * (x - next.mean - next.meanLo);
  return { count, ...next, m2, min: Math.min(m.min, x), max: Math.max(m.max, x) };
}

/**
 * Returns the moments of the union of two disjoint sets of values (Chan et al.); inputs are
 * not mutated. m2 overflows to Infinity only when values differ by more than ~1e150.
 */
export function mergeMoments(a: Moments, b: Moments): Moments {
  if (b.count === 0) return { ...a };
  if (a.count === 0) return { ...b };
  const count = a.count + b.count;
  const aLo = a.meanLo ?? 0;
  const delta = b.mean - a.mean + ((b.meanLo ?? 0) - aLo);
  const next = addToMean(a.mean, aLo, delta * (b.count / count));
  const m2 = a.m2 + b.m2 + delta * delta * ((a.count / count) * b.count);
  return { count, ...next, m2, min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) };
}

/**
 * Returns the moments of the finite values by a corrected two-pass computation (shifted mean,
 * then squared deviations minus the first-order correction). O(n).
 */
export function momentsOf(values: Iterable<number>): Moments {
  const xs = Array.isArray(values) ? (values as readonly number[]) : Array.from(values);
  return momentsOfRange(xs, 0, xs.length);
}

/** Returns momentsOf the values [from, to), read in place (non-finite ones skipped). */
export function momentsOfRange(values: ArrayLike<number>, from: number, to: number): Moments {
  let n = 0;
  let first = 0;
  let shifted = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let i = from; i < to; i++) {
    const x = values[i]!;
    if (!Number.isFinite(x)) continue;
    if (n++ === 0) first = x;
    shifted += x - first;
    if (x < min) min = x;
    if (x > max) max = x;
  }
  if (n === 0) return emptyMoments();
  const rough = addToMean(first, 0, shifted / n);
  let squares = 0;
  let residual = 0;
  for (let i = from; i < to; i++) {
    const x = values[i]!;
    if (!Number.isFinite(x)) continue;
    const d = x - rough.mean - rough.meanLo;
    squares += d * d;
    residual += d;
  }
  const refined = addToMean(rough.mean, rough.meanLo, residual / n);
  return { count: n, ...refined, m2: Math.max(0, squares - (residual * residual) / n), min, max };
}

/** Returns the population variance (m2 / count), or null when there are no values. */
export function variance(m: Moments): number | null {
  return m.count === 0 ? null : Math.max(0, m.m2) / m.count;
}

/** Returns the population standard deviation, or null when there are no values. */
export function stddev(m: Moments): number | null {
  const v = variance(m);
  return v === null ? null : Math.sqrt(v);
}
