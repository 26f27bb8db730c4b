/**
 * SqlDb.readMany on PostgreSQL (the COPY answer read off the socket, copy-out.ts): rows of
 * many parameter rows in order, and a read that fails — refused by the server, failing
 * mid-answer, or stopped by onRow — rejects and leaves the pool's connections usable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlDb } from '../../src/store/sql/db.js';
import { postgresTestUrl, reusedPostgresDb } from '../helpers/test-database.js';

/** Rows 1..? with a float and a blob of g bytes each. */
const SERIES =
  "SELECT g, g / 2.0::float8, decode(repeat('ab', CAST(g AS INTEGER)), 'hex') FROM generate_series(1, ?) g";

describe.skipIf(postgresTestUrl() === undefined)('readMany on PostgreSQL', () => {
  const database = reusedPostgresDb();
  let db: SqlDb;
  beforeAll(async () => {
    db = await database.empty();
  });
  afterAll(() => database.close());

  /** The rows of a read as [index, g, half, blob length]. */
  async function rows(params: number[][]): Promise<number[][]> {
    const out: number[][] = [];
    await db.readMany!(SERIES, params, ['int', 'float', 'bytes'], (i, r) =>
      out.push([i, r[0] as number, r[1] as number, (r[2] as Uint8Array).length]),
    );
    return out;
  }

  it('gives every parameter row its rows in order, across many socket reads', async () => {
    const got = await rows([[3], [0], [2000]]);
    const want = [
      ...[1, 2, 3].map((g) => [0, g, g / 2, g]),
      ...Array.from({ length: 2000 }, (_, j) => [2, j + 1, (j + 1) / 2, j + 1]),
    ];
    expect(got).toEqual(want);
  });

  it('rejects a refused statement, an error mid-answer and onRow throwing, then reads again', async () => {
    await expect(db.readMany!('SELECT 1 / (0 * ?)', [[1]], ['int'], () => {})).rejects.toThrow(/division by zero/);
    const failing = 'SELECT g, 1 / (g - 30000) FROM generate_series(1, ?) g';
    await expect(db.readMany!(failing, [[50_000]], ['int', 'int'], () => {})).rejects.toThrow(/division by zero/);
    const stop = (_: number, r: readonly unknown[]) => {
      if (r[0] === 1500) throw new Error('stopped by onRow');
    };
    await expect(db.readMany!(SERIES, [[3000]], ['int', 'float', 'bytes'], stop)).rejects.toThrow(/stopped by onRow/);
    const again = await Promise.all([1, 2, 3, 4, 5, 6].map(() => rows([[500]])));
    for (const got of again) expect(got.length).toBe(500);
    expect(await db.allArrays('SELECT 42', [])).toEqual([[42]]);
  });
});
