import { describe, expect, it } from 'vitest';
import { CopyTuples, readManySql } from '../../src/store/postgres/postgres-read-many.js';
import type { ByteSpan, ColumnForm } from '../../src/store/sql/db.js';

/** A binary COPY answer of rows (k, int8, float8, bytea), as PostgreSQL sends it. */
function copyAnswer(rows: readonly [number, number, number | null, Uint8Array | null][]): Buffer {
  const parts: Buffer[] = [
    Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'),
    Buffer.alloc(4),
    Buffer.from([0, 0, 0, 3, 9, 9, 9]),
  ];
  const field = (bytes: Buffer | null) => {
    const len = Buffer.alloc(4);
    len.writeInt32BE(bytes === null ? -1 : bytes.length);
    parts.push(len);
    if (bytes) parts.push(bytes);
  };
  for (const [k, int, float, bytes] of rows) {
    const count = Buffer.alloc(2);
    count.writeInt16BE(4);
    parts.push(count);
    const i8 = (v: number) => {
      const b = Buffer.alloc(8);
      b.writeBigInt64BE(BigInt(v));
      return b;
    };
    field(i8(k));
    field(i8(int));
    if (float === null) field(null);
    else {
      const f = Buffer.alloc(8);
      f.writeDoubleBE(float);
      field(f);
    }
    field(bytes === null ? null : Buffer.from(bytes));
  }
  parts.push(Buffer.from([0xff, 0xff]));
  return Buffer.concat(parts);
}

const FORMS: ColumnForm[] = ['int', 'float', 'bytes'];

describe('CopyTuples', () => {
  const rows: [number, number, number | null, Uint8Array | null][] = [
    [1, -5, 1.5, new Uint8Array([1, 2, 3])],
    [1, 2 ** 40 + 7, null, null],
    [2, 0, -0.25, new Uint8Array(300).fill(7)],
    [3, -(2 ** 50), Number.MAX_VALUE, new Uint8Array(0)],
  ];
  const expected = rows.map(([k, i, f, b]) => [k - 1, i, f, b === null ? null : [...b]]);
  const parse = (pieces: Buffer[]) => {
    const seen: unknown[][] = [];
    const tuples = new CopyTuples(FORMS, (index, row) =>
      seen.push([index, row[0], row[1], row[2] === null ? null : [...(row[2] as Uint8Array)]]),
    );
    for (const piece of pieces) tuples.push(piece);
    tuples.end();
    return seen;
  };

  it('gives every row with its parameter row index, whole or split at any byte', () => {
    const answer = copyAnswer(rows);
    expect(parse([answer])).toEqual(expected);
    for (let cut = 1; cut < answer.length; cut++) {
      expect(parse([answer.subarray(0, cut), answer.subarray(cut)])).toEqual(expected);
    }
    const bytes = [...answer].map((b) => Buffer.from([b]));
    expect(parse(bytes)).toEqual(expected);
  });

  it('gives span columns as where their bytes lie, whole or split at any byte', () => {
    const answer = copyAnswer(rows);
    const spans = (pieces: Buffer[]) => {
      const seen: unknown[][] = [];
      const tuples = new CopyTuples(['int', 'float', 'span'], (index, row) => {
        const span = row[2] as ByteSpan | null;
        const bytes = span && new Uint8Array(span.view.buffer, span.view.byteOffset + span.at, span.length);
        seen.push([index, row[0], row[1], bytes && [...bytes]]);
      });
      for (const piece of pieces) tuples.push(piece);
      tuples.end();
      return seen;
    };
    expect(spans([answer])).toEqual(expected);
    for (let cut = 1; cut < answer.length; cut += 7) {
      expect(spans([answer.subarray(0, cut), answer.subarray(cut)])).toEqual(expected);
    }
  });

  it('throws when the answer stops before its trailer', () => {
    const answer = copyAnswer(rows);
    expect(() => parse([answer.subarray(0, answer.length - 2)])).toThrow(/ended early/);
    expect(() => parse([answer.subarray(0, answer.length - 5)])).toThrow(/ended early/);
  });
});

describe('readManySql', () => {
  it('reads each parameter row through the unnested arrays, in their order', () => {
    const sql = readManySql("SELECT a FROM t WHERE b = ? AND c <= ? AND d = '?'", [
      [1, 2],
      [3, -4],
    ]);
    expect(sql).toBe(
      "COPY (SELECT s.k, r.* FROM unnest('{1,3}'::bigint[], '{2,-4}'::bigint[]) WITH ORDINALITY AS s(p1, p2, k) " +
        "CROSS JOIN LATERAL (SELECT a FROM t WHERE b = s.p1 AND c <= s.p2 AND d = '?') AS r) TO STDOUT (FORMAT binary)",
    );
  });

  it('refuses parameters that are not integers, and rows of another width than the read', () => {
    expect(() => readManySql('SELECT ?', [[1.5]])).toThrow(/integers/);
    expect(() => readManySql('SELECT ?', [[1], [2, 3]])).toThrow(/integers/);
    expect(() => readManySql('SELECT ?, ?', [[1]])).toThrow(/parameters/);
  });
});
