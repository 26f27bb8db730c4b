import { describe, expect, it } from 'vitest';
import type { MetricStats } from '@server/api/schemas/metrics';
import { metricBests } from './metric-bests';

const stats = (logName: string, min: number | null, max: number | null, last: number | null): MetricStats => ({
  logName,
  logGroup: logName.split('/')[0] ?? '',
  count: min === null ? 0 : 3,
  min,
  max,
  mean: null,
  stddev: null,
  last: { step: 9, value: last },
});

const METRICS = [
  stats('lr', 0.001, 0.1, 0.001),
  stats('sys/cpu.pct', 10, 90, 50),
  stats('train/loss', 0.2, 2, 0.3),
  stats('val/acc', 0.1, 0.9, 0.8),
  stats('val/loss', null, null, null),
];

describe('a run’s metric bests', () => {
  it('gives the final value and the best extreme, the run’s own metrics before sys/', () => {
    expect(metricBests(METRICS).map((m) => [m.name, m.final, m.extreme, m.best])).toEqual([
      ['lr', 0.001, undefined, null],
      ['train/loss', 0.3, 'min', 0.2],
      ['val/acc', 0.8, 'max', 0.9],
      ['val/loss', null, 'min', null],
      ['sys/cpu.pct', 50, undefined, null],
    ]);
  });

  it('keeps the names that contain the find text, in any case', () => {
    expect(metricBests(METRICS, ' LOSS ').map((m) => m.name)).toEqual(['train/loss', 'val/loss']);
  });
});
