/** groupBy parsing, group values and their order, and equal-width step buckets. */
import { describe, expect, it } from 'vitest';
import { compareGroupKeys, groupTagOf, groupValueOf, parseGroupBy } from '../../src/domain/group-by.js';
import { bucketOf, bucketSteps, RunBucketSums, stepBuckets } from '../../src/domain/step-buckets.js';

describe('parseGroupBy', () => {
  it('reads config and systemMetadata paths, status and group, trimmed, in order', () => {
    expect(parseGroupBy(' config.opt.name , status,group')).toEqual([
      { name: 'config.opt.name', kind: 'config', path: ['opt', 'name'] },
      { name: 'status', kind: 'status' },
      { name: 'group', kind: 'group' },
    ]);
    expect(parseGroupBy('systemMetadata.gpu')).toEqual([
      { name: 'systemMetadata.gpu', kind: 'systemMetadata', path: ['gpu'] },
    ]);
  });

  it.each(['', 'name', 'config', 'config.', 'config.a..b', 'summary.loss', 'a,b,c,d', 'status,status', 'config.a"b'])(
    'refuses %j with BAD_REQUEST',
    (text) => {
      expect(() => parseGroupBy(text)).toThrow(expect.objectContaining({ code: 'BAD_REQUEST' }));
    },
  );
});

describe('group values', () => {
  it('keeps JSON scalars, writes objects and arrays as JSON text, and maps missing and JSON null to null', () => {
    expect([groupValueOf('0.01'), groupValueOf('"adam"'), groupValueOf('true'), groupValueOf('null')]).toEqual([
      0.01,
      'adam',
      true,
      null,
    ]);
    expect(groupValueOf('{"a": [1, 2]}')).toBe('{"a":[1,2]}');
    expect(groupValueOf(null)).toBeNull();
    expect(groupTagOf(['x', 'group:seed-sweep', 'group:other'])).toBe('seed-sweep');
    expect(groupTagOf(['x'])).toBeNull();
  });

  it('orders keys field by field: numbers, then strings by code point, then booleans, null last', () => {
    const keys = [[null], [true], ['b'], [false], [2], ['\u{1F600}'], ['\uFFFF'], [-1], ['a']];
    expect([...keys].sort(compareGroupKeys)).toEqual([
      [-1],
      [2],
      ['a'],
      ['b'],
      ['\uFFFF'],
      ['\u{1F600}'],
      [false],
      [true],
      [null],
    ]);
    expect(compareGroupKeys([1, null], [1, 'x'])).toBeGreaterThan(0);
  });
});

describe('step buckets', () => {
  it('uses width 1 up to limit steps, else ceil(steps / limit), the last bucket ending at stepMax', () => {
    expect(stepBuckets(0, 9, 10)).toEqual({ stepMin: 0, stepMax: 9, width: 1, count: 10 });
    const b = stepBuckets(5, 105, 10);
    expect(b).toEqual({ stepMin: 5, stepMax: 105, width: 11, count: 10 });
    expect([bucketOf(b, 5), bucketOf(b, 15), bucketOf(b, 16), bucketOf(b, 105)]).toEqual([0, 0, 1, 9]);
    expect(bucketSteps(b, 9)).toEqual({ step: 104, stepEnd: 105 });
  });

  it('sums points, pieces and moments with compensation, counting non-finite points apart', () => {
    const s = new RunBucketSums(1);
    s.addPoint(0, 1e16);
    s.addPoint(0, 1);
    s.addPoint(0, NaN);
    s.addPiece(0, -1e16, 1, 2);
    s.addMoments(0, 2, 0.5, 0, 1);
    expect(s.mean(0)).toBe(2 / 5);
    expect(s.nonFinite[0]).toBe(4);
    expect(new RunBucketSums(1).mean(0)).toBeUndefined();
  });
});
