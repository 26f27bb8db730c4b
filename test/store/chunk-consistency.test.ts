/**
 * The SQL store's chunks must always hold each series' points in order, disjoint, of bounded
 * size, with stored statistics equal to those computed from their decoded points, whatever
 * the writes (appends, overwrites, re-sends, steps below the first, NaN) and whichever
 * writer made them (a second store on the same database invalidates the first one's cached tail).
 */
import type { MetricPointInput } from '../../src/domain/types.js';
import fc from 'fast-check';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqlSeriesStore } from '../../src/store/sql/series-store.js';
import { chunkStats } from '../../src/store/sql/chunks/chunk-codec.js';
import { CHUNK_POINTS } from '../../src/store/sql/chunks/chunk-size.js';
import { CHUNK_COLUMNS, rowPoints, rowStats, type ChunkDataRow } from '../../src/store/sql/chunks/chunk-rows.js';
import type { SqlDb } from '../../src/store/sql/db.js';
import { asStored, own, PointModel } from '../conformance/series-suite-helpers.js';
import { openMigratedSqlite } from '../helpers/test-database.js';

async function expectChunksExact(db: SqlDb): Promise<void> {
  const series = await db.all<{ id: number; points: number }>('SELECT id, points FROM series');
  for (const s of series) {
    const rows = await db.all<ChunkDataRow>(
      `SELECT ${CHUNK_COLUMNS} FROM metric_chunks WHERE series_id = ? ORDER BY first_step`,
      [s.id],
    );
    let total = 0;
    let previous = -Infinity;
    for (const row of rows) {
      const points = rowPoints(row);
      expect(points.steps.length, `chunk ${row.first_step} of series ${s.id}`).toBeGreaterThan(0);
      expect(points.steps.length).toBeLessThanOrEqual(2 * CHUNK_POINTS);
      expect(points.steps[0]).toBeGreaterThan(previous);
      for (let i = 1; i < points.steps.length; i++) expect(points.steps[i]).toBeGreaterThan(points.steps[i - 1]!);
      previous = points.steps.at(-1)!;
      const want = chunkStats(points);
      const have = rowStats(row);
      expect({ ...have, moments: undefined }).toEqual({ ...want, moments: undefined });
      expect(have.moments.count).toBe(want.moments.count);
      if (want.moments.count > 0) {
        expect([have.moments.min, have.moments.max]).toEqual([want.moments.min, want.moments.max]);
        expect(have.moments.mean).toBe(want.moments.mean);
        expect(have.moments.m2).toBe(want.moments.m2);
      }
      total += points.steps.length;
    }
    expect(total, `points of series ${s.id}`).toBe(Number(s.points));
  }
}

const value = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: -100, max: 100 }) },
  { weight: 1, arbitrary: fc.constantFrom(NaN, Infinity, -Infinity) },
);
const batch = fc.record({
  writer: fc.constantFrom(0, 0, 0, 1),
  from: fc.integer({ min: 0, max: 2000 }),
  length: fc.integer({ min: 1, max: 400 }),
  stride: fc.constantFrom(1, 1, 3, 17),
  time: fc.integer({ min: 0, max: 4 }),
  value,
});

describe('chunked metric points (sqlite)', () => {
  it('stay ordered, disjoint, bounded and exact after random writes by two writers', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(batch, { minLength: 1, maxLength: 12 }), async (batches) => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-chunks-'));
        const db = await openMigratedSqlite(path.join(dir, 'series.db'));
        try {
          const writers = [new SqlSeriesStore(db), new SqlSeriesStore(db)];
          const model = new PointModel();
          for (const [i, b] of batches.entries()) {
            const points: MetricPointInput[] = [];
            for (let k = 0; k < b.length; k++) {
              const step = b.from + k * b.stride;
              points.push({ logName: 'loss', step, time: b.time, value: k % 5 === 0 ? b.value : step * (i + 1) });
            }
            model.apply(1, points);
            await writers[b.writer]!.appendMetrics({ id: 1, projectId: 1 }, points);
          }
          await expectChunksExact(db);
          const read = await writers[0]!.readPoints(own(1), 'loss', 0, 1e9);
          expect(read).toEqual(asStored(model.effective(own(1), 'loss')));
        } finally {
          await db.close();
          fs.rmSync(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: 40 },
    );
  }, 240_000);
});
