import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { deepMerge, isPlainObject, MAX_MERGE_DEPTH } from '../../src/domain/deep-merge.js';

describe('isPlainObject', () => {
  it.each([
    { label: 'an object literal', value: { a: 1 }, plain: true },
    { label: 'a parsed JSON object', value: JSON.parse('{"a":1}') as unknown, plain: true },
    { label: 'a null-prototype object', value: Object.create(null) as unknown, plain: true },
    { label: 'an array', value: [1], plain: false },
    { label: 'null', value: null, plain: false },
    { label: 'a string', value: 'a', plain: false },
    { label: 'a Date', value: new Date(0), plain: false },
    { label: 'a Map', value: new Map(), plain: false },
  ])('says $label is plain: $plain', ({ value, plain }) => {
    expect(isPlainObject(value)).toBe(plain);
  });
});

describe('deepMerge', () => {
  it.each([
    {
      rule: 'patch keys override base keys',
      base: { a: 1, b: 2 },
      patch: { b: 3 },
      out: { a: 1, b: 3 },
    },
    {
      rule: 'nested objects merge recursively',
      base: { opt: { lr: 0.1, beta: { one: 0.9, two: 0.99 } } },
      patch: { opt: { beta: { two: 0.999 }, decay: 0 } },
      out: { opt: { lr: 0.1, beta: { one: 0.9, two: 0.999 }, decay: 0 } },
    },
    { rule: 'arrays replace', base: { xs: [1, 2, 3] }, patch: { xs: [4] }, out: { xs: [4] } },
    {
      rule: 'null replaces an object',
      base: { o: { a: 1 } },
      patch: { o: null },
      out: { o: null },
    },
    {
      rule: 'an object replaces a scalar',
      base: { o: 1 },
      patch: { o: { a: 1 } },
      out: { o: { a: 1 } },
    },
    {
      rule: 'a scalar replaces an object',
      base: { o: { a: 1 } },
      patch: { o: 'x' },
      out: { o: 'x' },
    },
    { rule: 'a non-object patch is returned', base: { a: 1 }, patch: [1], out: [1] },
    { rule: 'a non-object base takes the patch', base: null, patch: { a: 1 }, out: { a: 1 } },
    { rule: 'an empty patch keeps base', base: { a: { b: 1 } }, patch: {}, out: { a: { b: 1 } } },
  ])('merges so that $rule', ({ base, patch, out }) => {
    expect(deepMerge(base, patch)).toEqual(out);
  });

  it('never mutates its inputs', () => {
    const base = { a: { b: 1, c: [1] }, d: 1 };
    const patch = { a: { b: 2 }, e: { f: 1 } };
    const before = JSON.stringify([base, patch]);
    const out = deepMerge(base, patch) as Record<string, unknown>;
    expect(JSON.stringify([base, patch])).toBe(before);
    expect(out).not.toBe(base);
    expect(out.a).not.toBe(base.a);
  });

  it('keeps a parsed __proto__ key as plain data and pollutes no prototype', () => {
    const base: unknown = JSON.parse('{"a":1,"__proto__":{"x":1}}');
    const patch: unknown = JSON.parse('{"__proto__":{"polluted":true},"b":{"__proto__":{"y":2}}}');
    const out = deepMerge(base, patch) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['a', '__proto__', 'b']);
    expect(JSON.stringify(out)).toBe('{"a":1,"__proto__":{"x":1,"polluted":true},"b":{"__proto__":{"y":2}}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((out as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('does not read keys the base only inherits, such as constructor', () => {
    const out = deepMerge({}, JSON.parse('{"constructor":{"prototype":{"z":1}}}'));
    expect(JSON.stringify(out)).toBe('{"constructor":{"prototype":{"z":1}}}');
    expect(({} as Record<string, unknown>).z).toBeUndefined();
  });

  it('refuses objects nested deeper than the limit on both sides with a bad request', () => {
    const nest = (depth: number): unknown => {
      let v: unknown = { leaf: true };
      for (let i = 0; i < depth; i++) v = { a: v };
      return v;
    };
    expect(() => deepMerge(nest(MAX_MERGE_DEPTH + 5), nest(MAX_MERGE_DEPTH + 5))).toThrow(AppError);
    expect(deepMerge(nest(10), nest(10))).toEqual(nest(10));
  });
});
