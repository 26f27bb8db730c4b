/**
 * The SQL store's rollups must always equal rollups rebuilt from scratch from the stored
 * points, whatever the writes (appends, overwrites, re-sends, NaN, jumps to huge steps).
 */
import fc from 'fast-check';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeOfPoints, widthOf, type RollupNode } from '../../src/domain/rollup.js';
import { migrate } from '../../src/store/migrations/index.js';
import { openSqlite } from '../../src/store/sqlite/sqlite-db.js';
import { rowNode, type RollupRow, ROLLUP_COLUMNS } from '../../src/store/sql/sql-rollup-rows.js';
import { SqlSeriesStore } from '../../src/store/sql/sql-series-store.js';
import type { SqlDb } from '../../src/store/sql/sql-db.js';

async function expectRollupsExact(db: SqlDb): Promise<void> {
  const series = await db.all<{ id: number; rollup_level: number; max_step: number | null }>(
    'SELECT id, rollup_level, max_step FROM series',
  );
  for (const s of series) {
    const points = await db.all<{ step: number; value: number | null; time: number }>(
      'SELECT step, value, time FROM metric_points WHERE series_id = ? ORDER BY step',
      [s.id],
    );
    const stored = await db.all<RollupRow>(`SELECT ${ROLLUP_COLUMNS} FROM metric_rollups WHERE series_id = ?`, [s.id]);
    const have = new Map(stored.map((r) => [`${r.level}:${r.bucket}`, rowNode(r)]));
    const want = new Map<string, RollupNode>();
    for (let level = 0; level <= s.rollup_level; level++) {
      const groups = new Map<number, { step: number; value: number | null; time: number }[]>();
      for (const p of points) {
        const b = Math.floor(p.step / widthOf(level));
        groups.set(b, [...(groups.get(b) ?? []), p]);
      }
      for (const [b, ps] of groups) want.set(`${level}:${b}`, nodeOfPoints(ps));
    }
    expect([...have.keys()].sort(), `buckets of series ${s.id}`).toEqual([...want.keys()].sort());
    for (const [key, w] of want) {
      const h = have.get(key)!;
      expect({ ...h, moments: undefined }, key).toEqual({ ...w, moments: undefined });
      expect(h.moments.count, key).toBe(w.moments.count);
      if (w.moments.count > 0) {
        expect(h.moments.min, key).toBe(w.moments.min);
        expect(h.moments.max, key).toBe(w.moments.max);
        const mean = h.moments.mean + (h.moments.meanLo ?? 0) - (w.moments.mean + (w.moments.meanLo ?? 0));
        expect(Math.abs(mean), key).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(w.moments.mean)));
        expect(Math.abs(h.moments.m2 - w.moments.m2), key).toBeLessThanOrEqual(1e-9 * Math.max(1, w.moments.m2));
      }
    }
    if (points.length > 0) expect(widthOf(s.rollup_level)).toBeGreaterThan(Math.min(s.max_step ?? 0, widthOf(11) - 1));
  }
}

const write = fc.record({
  name: fc.constantFrom('a', 'b'),
  start: fc.oneof(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 0, max: 5_000_000 })),
  stride: fc.integer({ min: 1, max: 50 }),
  time: fc.integer({ min: 0, max: 3 }),
  values: fc.array(
    fc.oneof(fc.integer({ min: -5, max: 5 }), fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.constant(NaN)),
    { minLength: 1, maxLength: 80 },
  ),
});

describe('metric rollups of the SQL store', () => {
  it('equal rollups rebuilt from the stored points after any sequence of writes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 15 }), async (writes) => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-rollups-'));
        const db = openSqlite(path.join(dir, 'db.sqlite'));
        try {
          await migrate(db);
          const store = new SqlSeriesStore(db);
          for (const w of writes) {
            const points = w.values.map((v, i) => ({
              logName: w.name,
              step: w.start + i * w.stride,
              time: w.time,
              value: v === 0 ? 0 : v,
            }));
            await store.appendMetrics({ id: 1, projectId: 1 }, points);
          }
          await expectRollupsExact(db);
        } finally {
          await db.close();
          fs.rmSync(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: 80 },
    );
  }, 240_000);
});
