/**
 * Equal-width step buckets (GET /api/runs/groups/metrics): the steps stepMin..stepMax cut into
 * at most `limit` buckets of `width` steps (width 1 when the range has at most `limit` steps);
 * the last bucket ends at stepMax. Sums are kept compensated (Neumaier) so a bucket's mean is
 * exact to about 1e-15 relative however many chunks and points it adds.
 */

/** A step range cut into buckets. */
export interface StepBuckets {
  stepMin: number;
  stepMax: number;
  width: number;
  count: number;
}

/** The buckets of stepMin..stepMax (stepMin <= stepMax) for at most `limit` of them. */
export function stepBuckets(stepMin: number, stepMax: number, limit: number): StepBuckets {
  const steps = stepMax - stepMin + 1;
  const width = steps <= limit ? 1 : Math.ceil(steps / limit);
  return { stepMin, stepMax, width, count: Math.ceil(steps / width) };
}

/** The index of the bucket holding a step of the range. */
export const bucketOf = (b: StepBuckets, step: number): number => Math.floor((step - b.stepMin) / b.width);

/** A bucket's first and last step. */
export function bucketSteps(b: StepBuckets, index: number): { step: number; stepEnd: number } {
  const step = b.stepMin + index * b.width;
  return { step, stepEnd: Math.min(b.stepMax, step + b.width - 1) };
}

/**
 * One run's sums per bucket: the finite values' compensated sum and count, and the
 * non-finite points, in parallel arrays of the buckets `count` covers (dense).
 */
export class RunBucketSums {
  readonly sum: Float64Array;
  readonly comp: Float64Array;
  readonly count: Float64Array;
  readonly nonFinite: Float64Array;

  /** Empty sums of `buckets` buckets, or the given arrays' (as another thread answered them: kept, not copied). */
  constructor(buckets: number, arrays?: Pick<RunBucketSums, 'sum' | 'comp' | 'count' | 'nonFinite'>) {
    this.sum = arrays?.sum ?? new Float64Array(buckets);
    this.comp = arrays?.comp ?? new Float64Array(buckets);
    this.count = arrays?.count ?? new Float64Array(buckets);
    this.nonFinite = arrays?.nonFinite ?? new Float64Array(buckets);
  }

  /** Adds x to bucket i's sum (Neumaier's compensated summation). */
  private addSum(i: number, x: number): void {
    const s = this.sum[i]!;
    const t = s + x;
    this.comp[i]! += Math.abs(s) >= Math.abs(x) ? s - t + x : x - t + s;
    this.sum[i] = t;
  }

  /** Adds one point's value (non-finite ones are counted apart). */
  addPoint(i: number, value: number): void {
    if (!Number.isFinite(value)) {
      this.nonFinite[i]!++;
      return;
    }
    this.addSum(i, value);
    this.count[i]!++;
  }

  /** Adds a piece of points summed apart: `count` finite values of sum `sum`, and `nonFinite` others. */
  addPiece(i: number, sum: number, count: number, nonFinite: number): void {
    if (count > 0) {
      this.addSum(i, sum);
      this.count[i]! += count;
    }
    this.nonFinite[i]! += nonFinite;
  }

  /** Adds a chunk's moments: `count` finite values of mean `mean + meanLo`, and `nonFinite` others. */
  addMoments(i: number, count: number, mean: number, meanLo: number, nonFinite: number): void {
    if (count > 0) {
      this.addSum(i, count * mean);
      this.addSum(i, count * meanLo);
      this.count[i]! += count;
    }
    this.nonFinite[i]! += nonFinite;
  }

  /** The mean of bucket i's finite values, or undefined when it has none. */
  mean(i: number): number | undefined {
    const n = this.count[i]!;
    return n > 0 ? (this.sum[i]! + this.comp[i]!) / n : undefined;
  }
}
