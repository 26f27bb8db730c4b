/**
 * Sampled reads bucketed by point skip the chunks that lie wholly inside one bucket (their
 * index row is their piece): the answer must be the one that reading every chunk gives, and
 * the one samplePoints gives over all the effective points, on random series with forks,
 * re-logged steps, non-finite values and sys/ series with many points at step 0.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { value } from '../conformance/series-sampling-cases.js';
import { samplePoints } from '../../src/domain/sampling.js';
import type { LineageLink, MetricPointInput } from '../../src/domain/types.js';
import { overlapping } from '../../src/store/sql/chunks/chunk-rows.js';
import { sampleSegments, segmentsOf, type Segment } from '../../src/store/sql/chunks/chunk-sample.js';
import type { SqlDb, SqlExecutor } from '../../src/store/sql/db.js';
import { collectPoints } from '../../src/store/sql/metrics/effective-points.js';
import { lineageMetrics } from '../../src/store/sql/metrics/lineage-series.js';
import type { StoredPoint } from '../../src/store/sql/metrics/series-row.js';
import { SqlSeriesStore } from '../../src/store/sql/series-store.js';
import type { SqlValue } from '../../src/store/sql/sql-value.js';
import { openMigratedSqlite } from '../helpers/test-database.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-skip-'));
let next = 0;
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** A fresh migrated store and its database. */
async function open(): Promise<{ db: SqlDb; store: SqlSeriesStore }> {
  const db = await openMigratedSqlite(path.join(root, `${next++}.db`));
  return { db, store: new SqlSeriesStore(db) };
}

/** The database with a count of the chunks whose points (`data`) its queries read. */
function counting(db: SqlDb): { tx: SqlExecutor; reads: () => number } {
  let reads = 0;
  const seen = (sql: string, rows: number) => (/\bdata\b/.test(sql) ? (reads += rows) : 0);
  const tx: SqlExecutor = {
    ...db,
    allArrays: async <T extends readonly unknown[]>(sql: string, params?: readonly SqlValue[]) => {
      const rows = await db.allArrays<T>(sql, params);
      seen(sql, rows.length);
      return rows;
    },
    get: async <T>(sql: string, params?: readonly SqlValue[]) => {
      const row = await db.get<T>(sql, params);
      seen(sql, row === undefined ? 0 : 1);
      return row;
    },
  };
  return { tx, reads: () => reads };
}

/** Dense runs of steps (several chunks in one bucket) beside sparse ones (a chunk over many buckets). */
const batch = fc.record({
  run: fc.constantFrom(1, 1, 2),
  start: fc.integer({ min: 0, max: 20_000 }),
  stride: fc.constantFrom(1, 1, 2, 7, 300),
  values: fc.array(value, { minLength: 100, maxLength: 900 }),
});

/** The segments of `logName` of the lineage in [stepMin, stepMax], or null. */
async function segmentsFor(db: SqlDb, lineage: LineageLink[], logName: string, stepMin: number, stepMax: number) {
  const [metric] = await lineageMetrics(db, lineage, { logNames: [logName] });
  return metric ? { metric, segments: segmentsOf(metric, stepMin, stepMax) } : undefined;
}

/** How many chunks the sampler sees over the segments (fewer than its buckets: it buckets by point). */
async function chunksOf(db: SqlDb, segments: readonly Segment[]): Promise<number> {
  let n = 0;
  for (const s of segments) {
    const range = overlapping(s.seriesId, s.from, s.to);
    n += (await db.all(`SELECT first_step FROM metric_chunks WHERE ${range.where}`, range.params)).length;
  }
  return n;
}

/** Checks skip == read-all, and == samplePoints over the effective points when bucketing by point. */
async function checkSame(
  db: SqlDb,
  lineage: LineageLink[],
  logName: string,
  stepMin: number,
  stepMax: number,
  limit: number,
): Promise<{ skipped: StoredPoint[] | null; readsSaved: number }> {
  const found = await segmentsFor(db, lineage, logName, stepMin, stepMax);
  if (!found?.segments) return { skipped: null, readsSaved: 0 };
  const skipping = counting(db);
  const readingAll = counting(db);
  const skipped = await sampleSegments(skipping.tx, found.segments, limit);
  const all = await sampleSegments(readingAll.tx, found.segments, limit, false);
  expect(skipped).toEqual(all);
  if (skipped && (await chunksOf(db, found.segments)) < Math.floor((limit - 2) / 2)) {
    const points = await collectPoints(db, found.metric.sources, stepMin, stepMax);
    expect(skipped).toEqual(samplePoints(points, limit));
  }
  return { skipped, readsSaved: readingAll.reads() - skipping.reads() };
}

describe('sampling that skips chunks wholly inside one bucket', () => {
  it('answers what reading every chunk answers, and what samplePoints answers, on random forked series', async () => {
    let saved = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(batch, { minLength: 2, maxLength: 8 }),
        fc.integer({ min: 0, max: 20_000 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 25_000 }), fc.integer({ min: 0, max: 25_000 })), {
          minLength: 1,
          maxLength: 3,
        }),
        fc.integer({ min: 4, max: 160 }),
        async (batches, forkStep, ranges, limit) => {
          const { db, store } = await open();
          try {
            for (const b of batches) {
              const points: MetricPointInput[] = b.values.map((v, i) => ({
                logName: 'loss',
                step: b.start + i * b.stride,
                time: b.start + i,
                value: v,
              }));
              // The child logs past its fork step (resume from a checkpoint); later batches re-log steps.
              const kept = b.run === 2 ? points.filter((p) => p.step > forkStep) : points;
              if (kept.length > 0) await store.appendMetrics({ id: b.run, projectId: 1 }, kept);
            }
            const lineages: LineageLink[][] = [
              [{ runId: 1, maxStep: Infinity }],
              [
                { runId: 2, maxStep: Infinity },
                { runId: 1, maxStep: forkStep },
              ],
            ];
            for (const lineage of lineages) {
              for (const [a, b] of [[0, Number.MAX_SAFE_INTEGER], ...ranges]) {
                saved += (await checkSame(db, lineage, 'loss', Math.min(a!, b!), Math.max(a!, b!), limit)).readsSaved;
              }
            }
          } finally {
            await store.close();
          }
        },
      ),
      { numRuns: 40 },
    );
    expect(saved, 'chunks left unread by skipping').toBeGreaterThan(0);
  }, 240_000);

  it('answers as samplePoints does for a 20,000-step series sampled to 500 points (chunks over several buckets)', async () => {
    const { db, store } = await open();
    try {
      const points = Array.from({ length: 20_000 }, (_, step) => ({
        logName: 'loss',
        step,
        time: step * 100,
        value: step % 1_000 === 0 ? NaN : Math.exp(-step / 5_000) + Math.sin(step),
      }));
      await store.appendMetrics({ id: 1, projectId: 1 }, points);
      const own = [{ runId: 1, maxStep: Infinity }];
      for (const [from, to, limit] of [
        [0, 20_000, 500],
        [0, 20_000, 1_200],
        [1_000, 9_000, 300],
      ] as const) {
        const { skipped } = await checkSame(db, own, 'loss', from, to, limit);
        expect(skipped).toHaveLength(limit);
      }
    } finally {
      await store.close();
    }
  });

  it('reads only the chunks of the first and last point of a sys/ series logged at step 0', async () => {
    const { db, store } = await open();
    try {
      const points: MetricPointInput[] = Array.from({ length: 5_000 }, (_, i) => ({
        logName: 'sys/cpu.pct',
        step: 0,
        time: 1_000 + i,
        value: i % 97 === 0 ? NaN : Math.sin(i / 50) * 40 + 50,
      }));
      points[2_345]!.value = 99.5;
      points[3_210]!.value = -1;
      await store.appendMetrics({ id: 1, projectId: 1 }, points);
      const own = [{ runId: 1, maxStep: Infinity }];
      for (const limit of [4, 10, 1_000]) {
        const { skipped, readsSaved } = await checkSame(db, own, 'sys/cpu.pct', 0, 0, limit);
        expect(skipped?.map((p) => p.value)).toEqual(expect.arrayContaining([99.5, -1]));
        // 40 chunks of 128 points: the sampler reads the two at the ends and no other.
        expect(readsSaved).toBeGreaterThanOrEqual(30);
      }
    } finally {
      await store.close();
    }
  });
});
