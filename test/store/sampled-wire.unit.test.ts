import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MetricPoint } from '../../src/domain/types.js';
import { packSeries, unpackSeries } from '../../src/store/sqlite/sampled-wire.js';

const point = fc.oneof(
  fc.record({
    step: fc.integer({ min: 0, max: 2 ** 40 }),
    time: fc.integer({ min: 0, max: 2 ** 45 }),
    value: fc.double({ noNaN: true, noDefaultInfinity: true }),
    flag: fc.constant(null),
  }),
  fc.record({
    step: fc.integer({ min: 0, max: 2 ** 40 }),
    time: fc.integer({ min: 0, max: 2 ** 45 }),
    value: fc.constant(null),
    flag: fc.constantFrom('NaN' as const, 'Infinity' as const, '-Infinity' as const),
  }),
) as fc.Arbitrary<MetricPoint>;

describe('sampled series across a bucket thread', () => {
  it('unpacks what it packed: steps, times, values (-0 too) and non-finite flags', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ logName: fc.string(), points: fc.array(point) }), { maxLength: 3 }),
        (series) => {
          expect(unpackSeries(packSeries(series))).toEqual(series);
        },
      ),
    );
  });

  it('packs four numbers a point in one array', () => {
    const [packed] = packSeries([{ logName: 'loss', points: [{ step: 3, time: 9, value: null, flag: '-Infinity' }] }]);
    expect(packed!.logName).toBe('loss');
    expect([...packed!.cols]).toEqual([3, 9, NaN, 3]);
  });
});
