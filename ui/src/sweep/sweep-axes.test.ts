import { describe, expect, it } from 'vitest';
import { axisOf, axisPosition, axisValueAt, compareValues, featureColumn, fieldLabel } from './sweep-axes';
import { brushedFilter, decodeBrush, encodeBrush, inBrush } from './brush';

describe('sweep axes', () => {
  it('makes a number axis of numbers and a category axis of anything else, in sorted order', () => {
    expect(axisOf('config.lr', [0.01, null, 0.001])).toEqual({
      field: 'config.lr',
      label: 'lr',
      kind: 'number',
      min: 0.001,
      max: 0.01,
      log: true,
    });
    const axis = axisOf('config.opt', ['sgd', null, 'adamw', true, 2]);
    expect(axis).toMatchObject({ kind: 'category', categories: [2, 'adamw', 'sgd', true, null] });
    expect(axisPosition(axis, 'adamw')).toBe(0.25);
    expect(featureColumn(axis, ['sgd', null])).toEqual([2, NaN]);
  });

  it('places values on a number axis and names metrics in full', () => {
    const axis = axisOf('summary_metrics.val/acc', [1, 3]);
    expect(axisPosition(axis, 2)).toBe(0.5);
    expect(axisPosition(axis, null)).toBeNull();
    expect(fieldLabel('summary_metrics.val/acc')).toBe('val/acc');
    expect(compareValues(false, true)).toBeLessThan(0);
  });
});

describe('brushes', () => {
  it('round-trip through the URL and reject what is malformed', () => {
    const range = { field: 'config.lr', lo: 0.001, hi: 0.002 };
    expect(decodeBrush(encodeBrush(range))).toEqual(range);
    const set = { field: 'config.opt', values: ['adamw', null] };
    expect(decodeBrush(encodeBrush(set))).toEqual(set);
    expect(decodeBrush('["id", 1, 2]')).toBeUndefined();
    expect(decodeBrush('not json')).toBeUndefined();
    expect(decodeBrush('["config.lr", [] ]')).toBeUndefined();
  });

  it('keep the values inside them', () => {
    expect(inBrush({ field: 'config.lr', lo: 1, hi: 2 }, 1.5)).toBe(true);
    expect(inBrush({ field: 'config.lr', lo: 1, hi: 2 }, '1.5')).toBe(false);
    expect(inBrush({ field: 'config.opt', values: [null] }, null)).toBe(true);
  });

  it('join the view filter with $and', () => {
    expect(brushedFilter('{"status":"RUNNING"}', [])).toBe('{"status":"RUNNING"}');
    expect(JSON.parse(brushedFilter('', [{ field: 'config.lr', lo: 1, hi: 2 }]))).toEqual({
      'config.lr': { $gte: 1, $lte: 2 },
    });
    expect(JSON.parse(brushedFilter('{"status":"RUNNING"}', [{ field: 'config.opt', values: ['sgd', null] }]))).toEqual(
      {
        $and: [
          { status: 'RUNNING' },
          { $or: [{ 'config.opt': { $in: ['sgd'] } }, { 'config.opt': { $exists: false } }] },
        ],
      },
    );
    expect(brushedFilter('{oops', [{ field: 'config.lr', lo: 1, hi: 2 }])).toBe('{oops');
  });
});

describe('axisValueAt', () => {
  it('snaps places near an end to the end’s exact value', () => {
    const axis = { field: 'config.lr', label: 'lr', kind: 'number', min: 0.0003, max: 0.003, log: false } as const;
    expect(axisValueAt(axis, 0.99)).toBe(0.003);
    expect(axisValueAt(axis, 0.01)).toBe(0.0003);
    expect(axisValueAt(axis, 0.5)).toBeCloseTo(0.00165, 12);
  });
});

describe('log axes', () => {
  it('place positive values spanning 10× or more by their logarithm', () => {
    const axis = axisOf('config.lr', [0.0001, 0.001, 0.01]);
    expect(axis).toMatchObject({ kind: 'number', log: true });
    expect(axisPosition(axis, 0.001)).toBeCloseTo(0.5, 12);
    expect(axisValueAt(axis as typeof axis & { kind: 'number' }, 0.5)).toBeCloseTo(0.001, 12);
    expect(axisOf('config.x', [-1, 100])).toMatchObject({ log: false });
    expect(axisOf('config.x', [1, 9])).toMatchObject({ log: false });
    expect(axisOf('config.lr', [0.0003, 0.003])).toMatchObject({ log: true });
  });
});
