/**
 * The wire form of read series (search thread → main thread): every point comes back as the
 * same MetricPoint, finite and non-finite alike, in the same order.
 */
import { describe, expect, it } from 'vitest';
import type { MetricPoint } from '../../src/domain/types.js';
import { fromWire, toWire } from '../../src/store/sqlite/series-wire.js';

describe('series wire form', () => {
  it('gives back the same points, flags and logNames', () => {
    const points: MetricPoint[] = [
      { step: 0, time: 1_700_000_000_000, value: 0.5, flag: null },
      { step: 1, time: 1_700_000_000_100, value: null, flag: 'NaN' },
      { step: 2, time: 1_700_000_000_200, value: null, flag: 'Infinity' },
      { step: 3, time: 1_700_000_000_300, value: null, flag: '-Infinity' },
      { step: 2 ** 52, time: 1_700_000_000_400, value: -1.7976931348623157e308, flag: null },
    ];
    const series = [
      { logName: 'train/loss', points },
      { logName: 'empty', points: [] },
    ];
    expect(fromWire(toWire(series))).toEqual(series);
    expect(JSON.stringify(fromWire(toWire(series)))).toBe(JSON.stringify(series));
  });
});
