import { describe, expect, it } from 'vitest';
import type { Json } from '@server/api/schemas/json';
import { configRows, flattenConfig } from '@server/domain/config-diff';

const entries = (m: Map<string, string>) => [...m.entries()];

describe('flattenConfig', () => {
  it('answers no entries for a null config', () => {
    expect(flattenConfig(null).size).toBe(0);
  });

  it('turns nested objects into dotted keys and everything else into JSON text', () => {
    const flat = flattenConfig({ a: { b: 1, c: { d: 'x' } }, list: [1, { e: 2 }], n: null, t: true, s: 'hi' });
    expect(entries(flat)).toEqual([
      ['a.b', '1'],
      ['a.c.d', '"x"'],
      ['list', '[1,{"e":2}]'],
      ['n', 'null'],
      ['t', 'true'],
      ['s', '"hi"'],
    ]);
  });

  it('keeps an empty object as one "{}" entry, at the top as "(config)"', () => {
    expect(entries(flattenConfig({ a: {} }))).toEqual([['a', '{}']]);
    expect(entries(flattenConfig({}))).toEqual([['(config)', '{}']]);
  });

  it('files a config that is not an object under "(config)"', () => {
    expect(entries(flattenConfig(5))).toEqual([['(config)', '5']]);
    expect(entries(flattenConfig('lr=0.1'))).toEqual([['(config)', '"lr=0.1"']]);
    expect(entries(flattenConfig([1, 2]))).toEqual([['(config)', '[1,2]']]);
  });

  it('flattens a config nested a thousand levels deep', () => {
    let deep: Json = { leaf: 1 };
    for (let i = 0; i < 1000; i++) deep = { k: deep };
    const flat = flattenConfig(deep);
    expect(flat.size).toBe(1);
    expect(flat.get(`${'k.'.repeat(1000)}leaf`)).toBe('1');
  });
});

describe('configRows', () => {
  it('answers no rows for no configs, or only null ones', () => {
    expect(configRows([])).toEqual([]);
    expect(configRows([null, null])).toEqual([]);
  });

  it('lists every key once, sorted by code point, with each run’s value', () => {
    const rows = configRows([
      { b: 1, a: { x: 2 } },
      { B: 3, '10': 4, '9': 5 },
    ]);
    expect(rows.map((r) => r.key)).toEqual(['10', '9', 'B', 'a.x', 'b']);
    expect(rows.find((r) => r.key === 'a.x')!.values).toEqual(['2', undefined]);
  });

  it('marks the keys the runs disagree on, a missing key included', () => {
    const rows = configRows([
      { same: 1, diff: 1, typed: 1, gone: 'x' },
      { same: 1, diff: 2, typed: '1' },
      { same: 1, diff: 1, typed: 1 },
    ]);
    const differs = Object.fromEntries(rows.map((r) => [r.key, r.differs]));
    expect(differs).toEqual({ diff: true, gone: true, same: false, typed: true });
  });

  it('never marks a single run’s keys as differing', () => {
    expect(configRows([{ a: 1, b: [2] }]).every((r) => !r.differs)).toBe(true);
  });

  it('compares runs whose config is null against the others', () => {
    expect(configRows([{ a: 1 }, null])).toEqual([{ key: 'a', values: ['1', undefined], differs: true }]);
  });

  it('compares twenty runs of a thousand keys each', () => {
    const configs = Array.from({ length: 20 }, (_, run) =>
      Object.fromEntries(Array.from({ length: 1000 }, (_, k) => [`key${k}`, k === 500 ? run : k])),
    );
    const rows = configRows(configs);
    expect(rows).toHaveLength(1000);
    expect(rows.filter((r) => r.differs).map((r) => r.key)).toEqual(['key500']);
  });
});
