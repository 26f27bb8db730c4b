import { describe, expect, it } from 'vitest';
import { CHART_POINT_BUDGET, seriesLimit } from './series-limit';

describe('seriesLimit', () => {
  it('asks two points per pixel of the plot area, in steps of 100, for a few runs', () => {
    expect(seriesLimit(448)).toBe(800);
    expect(seriesLimit(448, 12)).toBe(800);
    expect(seriesLimit(1400, 1)).toBe(2700);
    expect(seriesLimit(100)).toBe(250);
    expect(seriesLimit(100_000)).toBe(10_000);
  });

  it('shares one budget per chart over many runs, so 100 runs ask 300 points each', () => {
    expect(seriesLimit(1400, 12)).toBe(2500);
    expect(seriesLimit(1400, 50)).toBe(600);
    expect(seriesLimit(1400, 100)).toBe(300);
    expect(seriesLimit(1400, 100) * 100).toBeLessThanOrEqual(CHART_POINT_BUDGET);
  });

  it('keeps the limit when one run of many is hidden or shown again', () => {
    expect(seriesLimit(1400, 99)).toBe(seriesLimit(1400, 100));
    expect(seriesLimit(700, 59)).toBe(seriesLimit(700, 60));
  });

  it('asks at least 200 points a run however many runs share the chart', () => {
    expect(seriesLimit(1400, 1000)).toBe(200);
  });
});
