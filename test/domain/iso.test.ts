import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { iso } from '../../src/domain/iso.js';

describe('iso', () => {
  it('formats every time exactly like Date.toISOString, in any order of calls', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 8.64e15 }), { minLength: 1, maxLength: 50 }), (times) => {
        for (const t of times) expect(iso(t)).toBe(new Date(t).toISOString());
      }),
    );
  });

  it('formats consecutive times of one second with their milliseconds', () => {
    for (const t of [1_700_000_000_000, 1_700_000_000_007, 1_700_000_000_042, 1_700_000_000_999, 1_700_000_001_000]) {
      expect(iso(t)).toBe(new Date(t).toISOString());
    }
    expect(iso(0)).toBe('1970-01-01T00:00:00.000Z');
  });
});
