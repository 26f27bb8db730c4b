import { describe, expect, it } from 'vitest';
import type { MetricSeries } from '../api/metric-queries';
import { xAtSteps } from './metric-x';

const series = (steps: number[], values: (number | null)[]): MetricSeries => ({
  steps,
  times: steps.map(() => 0),
  values,
  flags: values.map((v) => (v === null ? 'NaN' : undefined)),
  appended: 0,
  total: steps.length,
});

describe('xAtSteps', () => {
  it("takes the x metric's value at the same step, and interpolates between the steps it holds", () => {
    const lr = series([0, 10, 20], [1, 0.5, 0.25]);
    expect(xAtSteps(lr, [0, 5, 10, 15, 20])).toEqual([1, 0.75, 0.5, 0.375, 0.25]);
    expect(xAtSteps(lr, [20, 0])).toEqual([0.25, 1]);
  });

  it('gives null outside its steps, beside a non-finite value, and for an empty series', () => {
    const lr = series([10, 20, 30], [1, null, 3]);
    expect(xAtSteps(lr, [9, 31, 15, 25, 20, 30])).toEqual([null, null, null, null, null, 3]);
    expect(xAtSteps(series([], []), [1])).toEqual([null]);
  });

  it('takes the last value logged at a step held several times', () => {
    expect(xAtSteps(series([0, 0, 1], [5, 6, 7]), [0])).toEqual([6]);
  });
});
