/**
 * Shape-preserving down-sampling of a metric series (docs/api.md §4.5): the first and last point
 * plus the minimum and maximum of every equal-width step bucket, so spikes survive.
 */
import { badRequest } from '../errors.js';

/** A value that takes part in min/max: null and NaN do not. */
const counts = (value: number | null): value is number => value !== null && !Number.isNaN(value);

/**
 * Returns at most `limit` of the given points (the same objects, in their order): a copy when
 * they fit; else the first, the last, and per bucket of the step range its min and max point
 * (null values ignored, ties to the earliest point, an all-null bucket keeps its first point).
 * Expects ascending steps (several points at one step, as in a sys/ series, stay in their
 * order and share a bucket). O(n) time, O(limit) memory. Throws badRequest when limit
 * is not a positive integer.
 */
export function samplePoints<T extends { step: number; value: number | null }>(
  points: readonly T[],
  limit: number,
): T[] {
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw badRequest(`limit must be a positive integer, got ${limit}`);
  }
  const n = points.length;
  const first = points[0];
  const last = points[n - 1];
  if (n <= limit || first === undefined || last === undefined) return points.slice();
  if (limit === 1) return [first];
  if (limit <= 3) return [first, last];

  const buckets = Math.floor((limit - 2) / 2);
  const span = last.step - first.step;
  const bucketOf = (step: number): number =>
    span > 0 ? Math.min(buckets - 1, Math.floor(((step - first.step) * buckets) / span)) : 0;

  const out: T[] = [first];
  let current = -1;
  let head: T | undefined;
  let low: T | undefined;
  let high: T | undefined;
  let lowValue = 0;
  let highValue = 0;
  let lowAt = 0;
  let highAt = 0;
  const flush = (): void => {
    if (low === undefined || high === undefined) {
      if (head !== undefined) out.push(head);
    } else if (low === high) out.push(low);
    else if (lowAt < highAt) out.push(low, high);
    else out.push(high, low);
  };
  for (let i = 1; i < n - 1; i++) {
    const point = points[i];
    if (point === undefined) continue;
    const bucket = bucketOf(point.step);
    if (bucket > current) {
      flush();
      current = bucket;
      head = point;
      low = undefined;
      high = undefined;
    }
    const value = point.value;
    if (!counts(value)) continue;
    if (low === undefined || value < lowValue) {
      low = point;
      lowValue = value;
      lowAt = i;
    }
    if (high === undefined || value > highValue) {
      high = point;
      highValue = value;
      highAt = i;
    }
  }
  flush();
  out.push(last);
  return out;
}
