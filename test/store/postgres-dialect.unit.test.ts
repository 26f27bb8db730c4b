import { describe, expect, it } from 'vitest';
import { isRetryable, lockKey, toPositional } from '../../src/store/postgres/postgres-dialect.js';

describe('PostgreSQL placeholders', () => {
  it.each([
    ['SELECT 1', 'SELECT 1'],
    ['SELECT a FROM t WHERE b = ? AND c IN (?, ?)', 'SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)'],
    ["SELECT '?' AS q, x FROM t WHERE y = ?", "SELECT '?' AS q, x FROM t WHERE y = $1"],
    ['SELECT "odd?name" FROM t WHERE y = ?', 'SELECT "odd?name" FROM t WHERE y = $1'],
    ['SELECT x -- why?\nFROM t WHERE y = ?', 'SELECT x -- why?\nFROM t WHERE y = $1'],
    ["SELECT 'it''s ?' WHERE a = ?", "SELECT 'it''s ?' WHERE a = $1"],
  ])('%j becomes %j', (sql, expected) => {
    expect(toPositional(sql)).toBe(expected);
  });
});

describe('PostgreSQL retries and locks', () => {
  it('retries serialization failures, deadlocks and unique-key races only', () => {
    expect(['40001', '40P01', '23505'].map((code) => isRetryable({ code }))).toEqual([true, true, true]);
    expect([{ code: '23503' }, { code: '22003' }, new Error('x'), null].map(isRetryable)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it('derives a stable signed 64-bit advisory-lock key per name', () => {
    expect(lockKey('migrate')).toBe(lockKey('migrate'));
    expect(lockKey('migrate')).not.toBe(lockKey('startup'));
    for (const name of ['migrate', 'startup', '']) {
      expect(lockKey(name) >= -(2n ** 63n) && lockKey(name) < 2n ** 63n).toBe(true);
    }
  });
});
