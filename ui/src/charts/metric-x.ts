/**
 * One metric drawn against another: the x metric's value at each step of the y metric. Both
 * series are sampled by the server independently, so a step the x series does not hold is
 * interpolated linearly between the nearest steps it holds on either side.
 */
import type { MetricSeries } from '../api/metric-queries';

/**
 * The value of series `x` at each of `steps`: its value at that step when it holds the step
 * (the last one logged there), else the straight line between its neighbouring held steps;
 * null before its first step, after its last, or beside a non-finite value. `x` is ordered by
 * step (as the API returns it); `steps` may be in any order.
 */
export function xAtSteps(x: MetricSeries, steps: readonly number[]): (number | null)[] {
  const n = x.steps.length;
  return steps.map((step) => {
    // The first index whose step is greater than `step`.
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (x.steps[mid]! <= step) lo = mid + 1;
      else hi = mid;
    }
    const before = lo - 1;
    if (before < 0) return null;
    if (x.steps[before] === step) return x.values[before] ?? null;
    if (lo >= n) return null;
    const v0 = x.values[before];
    const v1 = x.values[lo];
    if (v0 === null || v0 === undefined || v1 === null || v1 === undefined) return null;
    const s0 = x.steps[before]!;
    const s1 = x.steps[lo]!;
    return v0 + ((v1 - v0) * (step - s0)) / (s1 - s0);
  });
}
