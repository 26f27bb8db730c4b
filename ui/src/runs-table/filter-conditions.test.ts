import { describe, expect, it } from 'vitest';
import {
  CONFIG_OPS,
  METRIC_OPS,
  OP_LABELS,
  compileFilter,
  describeCondition,
  parseValue,
  readConditions,
  type Condition,
} from './filter-conditions';

const loss: Condition = { kind: 'metric', name: 'train/loss', op: '$lt', value: 0.5 };
const lr: Condition = { kind: 'config', name: 'optimizer.lr', op: '$gte', value: 0.001 };

describe('parseValue', () => {
  it('reads numbers and booleans, trimming spaces', () => {
    expect(parseValue('0.5')).toBe(0.5);
    expect(parseValue(' -3 ')).toBe(-3);
    expect(parseValue('1e3')).toBe(1000);
    expect(parseValue('true')).toBe(true);
    expect(parseValue(' false ')).toBe(false);
  });

  it('keeps anything else as the text typed, spaces included', () => {
    expect(parseValue('adam')).toBe('adam');
    expect(parseValue(' adam ')).toBe(' adam ');
    expect(parseValue('')).toBe('');
    expect(parseValue('   ')).toBe('   ');
    expect(parseValue('True')).toBe('True');
  });

  it('keeps non-finite numbers as text (JSON cannot carry them)', () => {
    for (const t of ['NaN', 'Infinity', '-Infinity', '1e999']) expect(parseValue(t)).toBe(t);
  });
});

describe('describeCondition', () => {
  it('says what a chip filters on', () => {
    expect(describeCondition(loss)).toBe('metric train/loss last < 0.5');
    expect(describeCondition(lr)).toBe('config optimizer.lr ≥ 0.001');
    expect(describeCondition({ kind: 'config', name: 'opt', op: '$eq', value: 'adam' })).toBe('config opt = "adam"');
    expect(describeCondition({ kind: 'config', name: 'opt', op: '$regex', value: '^ad' })).toBe(
      'config opt matches "^ad"',
    );
    expect(describeCondition({ kind: 'config', name: 'flag', op: '$ne', value: true })).toBe('config flag ≠ true');
  });

  it('says "is set" or "is not set" for $exists', () => {
    expect(describeCondition({ ...loss, op: '$exists', value: true })).toBe('metric train/loss last is set');
    expect(describeCondition({ ...lr, op: '$exists', value: false })).toBe('config optimizer.lr is not set');
  });
});

describe('compileFilter', () => {
  it('answers an empty filter for no conditions', () => {
    expect(compileFilter([])).toBe('');
  });

  it('writes one condition as one field and several AND-ed in order', () => {
    expect(JSON.parse(compileFilter([loss]))).toEqual({ 'summary_metrics.train/loss': { $lt: 0.5 } });
    expect(JSON.parse(compileFilter([loss, lr]))).toEqual({
      $and: [{ 'summary_metrics.train/loss': { $lt: 0.5 } }, { 'config.optimizer.lr': { $gte: 0.001 } }],
    });
  });
});

describe('readConditions', () => {
  it('reads back every filter the builder writes', () => {
    const all: Condition[] = [
      ...METRIC_OPS.map((op): Condition => ({ kind: 'metric', name: 'val/acc', op, value: 1 })),
      ...CONFIG_OPS.map((op): Condition => ({ kind: 'config', name: 'model.depth', op, value: 'x' })),
      { kind: 'config', name: 'a', op: '$eq', value: false },
    ];
    for (const c of all) expect(readConditions(compileFilter([c]))).toEqual([c]);
    expect(readConditions(compileFilter(all))).toEqual(all);
  });

  it('answers no conditions for an empty filter, or an empty $and', () => {
    expect(readConditions('')).toEqual([]);
    expect(readConditions('  ')).toEqual([]);
    expect(readConditions('{"$and": []}')).toEqual([]);
  });

  it('answers undefined for a filter the builder did not write', () => {
    const foreign = [
      'not json',
      '[]',
      '42',
      '{"name": {"$eq": "a"}}', // not a metric or config field
      '{"summary_metrics.": {"$lt": 1}}', // no metric name
      '{"config.": {"$eq": 1}}',
      '{"config.a": {"$in": [1, 2]}}', // an operator the builder lacks
      '{"config.a": {"$eq": null}}',
      '{"config.a": {"$eq": {"b": 1}}}',
      '{"config.a": 1}', // a bare value, not an operator object
      '{"config.a": {"$gt": 1, "$lt": 3}}', // two operators on one field
      '{"config.a": {"$eq": 1}, "config.b": {"$eq": 2}}', // two fields in one object
      '{"$or": [{"config.a": {"$eq": 1}}]}',
      '{"$and": [{"config.a": {"$eq": 1}}], "config.b": {"$eq": 2}}',
      '{"$and": [{"config.a": {"$eq": 1}}, {"config.b": {"$in": [1]}}]}', // one bad part
      '{"$and": {"config.a": {"$eq": 1}}}',
    ];
    for (const filter of foreign) expect(readConditions(filter), filter).toBeUndefined();
  });

  it('keeps dots and slashes of names after the field prefix', () => {
    expect(readConditions('{"config.a.b.c": {"$eq": 1}}')).toEqual([
      { kind: 'config', name: 'a.b.c', op: '$eq', value: 1 },
    ]);
    expect(readConditions('{"summary_metrics.eval/top-1": {"$gt": 0.9}}')).toEqual([
      { kind: 'metric', name: 'eval/top-1', op: '$gt', value: 0.9 },
    ]);
  });
});

describe('operators', () => {
  it('labels every operator, and offers $regex on config values only', () => {
    for (const op of [...METRIC_OPS, ...CONFIG_OPS]) expect(OP_LABELS[op]).toBeTruthy();
    expect(METRIC_OPS).not.toContain('$regex');
    expect(CONFIG_OPS).toContain('$regex');
  });
});
