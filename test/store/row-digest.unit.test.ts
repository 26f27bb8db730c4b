import { describe, expect, it } from 'vitest';
import { RowDigest } from '../../src/store/copy/row-digest.js';

const digest = (rows: readonly (readonly unknown[])[]): string => {
  const d = new RowDigest();
  for (const r of rows) d.add(r);
  return d.hex();
};

describe('RowDigest, the checksum of copy verification', () => {
  it('is the same whatever order the rows are read in', () => {
    const rows = [
      [1n, 'a', 0.5, null],
      [2n, 'b', -1e300, Buffer.from([0, 1, 2])],
      [3n, '', 0, null],
    ];
    expect(digest(rows)).toBe(digest([rows[2]!, rows[0]!, rows[1]!]));
  });

  it('reads an integer as bigint (SQLite) and as number (PostgreSQL) alike', () => {
    expect(digest([[12n, 1_700_000_000_000n]])).toBe(digest([[12, 1_700_000_000_000]]));
  });

  it('tells apart NULL and text, text and number, and values moved between columns', () => {
    expect(digest([[null]])).not.toBe(digest([['N']]));
    expect(digest([['1']])).not.toBe(digest([[1]]));
    expect(digest([['ab', 'c']])).not.toBe(digest([['a', 'bc']]));
    expect(digest([[Buffer.from('x')]])).not.toBe(digest([['x']]));
  });

  it('counts rows and changes when a row is missing or repeated', () => {
    const d = new RowDigest();
    d.add([1]);
    d.add([2]);
    expect(d.rows).toBe(2);
    expect(d.hex()).toMatch(/^[0-9a-f]{16}$/);
    expect(digest([[1], [2]])).not.toBe(digest([[1]]));
    expect(digest([[1], [2]])).not.toBe(digest([[1], [2], [2]]));
  });
});
