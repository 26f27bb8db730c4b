import { describe, expect, it } from 'vitest';
import type { MetricSeries } from './metric-queries';
import { mergeTail, tailGroups } from './series-merge';

/** A series of the given steps (value = step, time = step s), holding `total` points in its range. */
const series = (steps: number[], total = steps.length, appended = 0): MetricSeries => ({
  steps,
  times: steps.map((s) => s * 1000),
  values: steps.map((s) => s),
  flags: steps.map(() => undefined),
  appended,
  total,
});

describe('tailGroups', () => {
  it('groups runs whose last steps are within the span of the group’s lowest', () => {
    const groups = tailGroups(
      [
        { runId: 3, last: 100 },
        { runId: 1, last: 90 },
        { runId: 2, last: 5000 },
        { runId: 4, last: 141 },
      ],
      50,
    );
    expect(groups).toEqual([
      { from: 90, runIds: [1, 3] },
      { from: 141, runIds: [4] },
      { from: 5000, runIds: [2] },
    ]);
  });

  it('returns no group for no runs', () => {
    expect(tailGroups([], 100)).toEqual([]);
  });
});

describe('mergeTail', () => {
  it('replaces from the last held step and counts the new points', () => {
    const merged = mergeTail(series([0, 1, 2, 3]), series([3, 4, 5]), 3)!;
    expect(merged.steps).toEqual([0, 1, 2, 3, 4, 5]);
    expect(merged.total).toBe(6);
    expect(merged.appended).toBe(2);
  });

  it('returns the same object when the tail brings nothing new', () => {
    const prev = series([0, 1, 2, 3]);
    expect(mergeTail(prev, series([3]), 3)).toBe(prev);
  });

  it('takes a re-logged last step’s new value', () => {
    const prev = series([0, 1, 2]);
    const tail = { ...series([2]), values: [7] };
    const merged = mergeTail(prev, tail, 2)!;
    expect(merged.values).toEqual([0, 1, 7]);
    expect(merged.total).toBe(3);
  });

  it('drops what a shared tail re-reads before the run’s last step, keeping the total exact', () => {
    // Read from step 2 for a run that holds up to step 4.
    const merged = mergeTail(series([0, 1, 2, 3, 4]), series([2, 3, 4, 5, 6]), 2)!;
    expect(merged.steps).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(merged.total).toBe(7);
    expect(merged.appended).toBe(2);
  });

  it('keeps the exact total of a sampled series taking a tail from its last step', () => {
    // 1,000 points held as a sample of 4; the tail from step 999 holds 3 points.
    const merged = mergeTail(series([0, 400, 600, 999], 1000), series([999, 1000, 1001]), 999)!;
    expect(merged.steps).toEqual([0, 400, 600, 999, 1000, 1001]);
    expect(merged.total).toBe(1002);
  });

  it('takes a sampled tail that starts at the run’s last step (its first point is kept)', () => {
    // 100 points from step 999, sampled to 3.
    const merged = mergeTail(series([0, 999], 1000), series([999, 1050, 1098], 100), 990)!;
    expect(merged.steps).toEqual([0, 999, 1050, 1098]);
    expect(merged.total).toBe(1099);
  });

  it('gives up on a sampled tail that starts before the run’s last step (its count there is unknown)', () => {
    expect(mergeTail(series([0, 1, 2, 3, 4]), series([2, 40, 80], 90), 2)).toBeNull();
  });
});
