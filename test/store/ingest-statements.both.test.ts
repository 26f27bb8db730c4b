/**
 * One ingest request is a handful of statements whatever its size: with the series' rows and
 * tail chunks cached, a 1,000-point request over 50 metrics updates the series summaries and
 * upserts the touched chunks (one bulk statement each), committed together. A series
 * appended many points at a time gets new chunks, its tail left as it is once half full.
 */
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrations/index.js';
import type { SqlDb, SqlExecutor } from '../../src/store/sql/db.js';
import { SqlSeriesStore } from '../../src/store/sql/series-store.js';
import { rawEngines } from '../helpers/test-database.js';

const engines = rawEngines('stepwise-ingest-statements-');

/**
 * The database with every statement of a write counted (a bulk INSERT of ≤ 500 rows is one),
 * and how many writes were transactions and how many commitStatements calls.
 */
function counting(db: SqlDb) {
  const statements: string[] = [];
  const chunkKeys: number[] = [];
  const writes = { transactions: 0, committed: 0 };
  const note = (sql: string, rows: readonly (readonly unknown[])[]) => {
    if (sql.startsWith('INSERT INTO metric_chunks')) for (const row of rows) chunkKeys.push(Number(row[1]));
    const one = /^\s*INSERT/i.test(sql) && rows.length <= 500;
    for (let i = 0; i < (one ? 1 : rows.length); i++) statements.push(sql);
  };
  const wrap = (tx: SqlExecutor): SqlExecutor => ({
    all: (sql, params) => (statements.push(sql), tx.all(sql, params)),
    allArrays: (sql, params) => (statements.push(sql), tx.allArrays(sql, params)),
    column: (sql, params) => (statements.push(sql), tx.column(sql, params)),
    get: (sql, params) => (statements.push(sql), tx.get(sql, params)),
    run: (sql, params) => (statements.push(sql), tx.run(sql, params)),
    runMany: (sql, rows) => (note(sql, rows), tx.runMany(sql, rows)),
  });
  const counted: SqlDb = {
    ...db,
    transaction: (fn) => (writes.transactions++, db.transaction((tx) => fn(wrap(tx)))),
    commitStatements: async (list) => {
      for (const s of list) if (s.rows.length > 0) note(s.sql, s.rows);
      await db.commitStatements(list);
      writes.committed++;
    },
  };
  return { db: counted, statements, chunkKeys, writes };
}

/** `n` points of one metric at steps from `from`, value = step. */
const steps = (logName: string, from: number, n: number, time?: number) =>
  Array.from({ length: n }, (_, i) => ({ logName, step: from + i, time: time ?? from + i, value: from + i }));

/** The first three words of each statement counted. */
const heads = (statements: readonly string[]) => statements.map((s) => s.split(' ').slice(0, 3).join(' '));

/** The statements of an append that locks and reads its series rows (its tails cached). */
const APPEND = ['SELECT id, run_id,', 'INSERT INTO metric_chunks', 'UPDATE series SET'];
/** The statements of an append after the tails of series this store wrote last: nothing read. */
const CACHED_APPEND = ['UPDATE series SET', 'INSERT INTO metric_chunks'];

/** 1,000 points: 20 steps from `from` of 50 metrics. */
function request(from: number) {
  const out = [];
  for (let step = from; step < from + 20; step++) {
    for (let m = 0; m < 50; m++) out.push({ logName: `train/m${m}`, step, time: step, value: Math.sin(step + m) });
  }
  return out;
}

describe.each(engines)('an ingest request ($name)', ({ open }) => {
  /** Runs `test` on a migrated database with a series store whose statements are counted. */
  const withStore = async (
    test: (t: { db: SqlDb; c: ReturnType<typeof counting>; store: SqlSeriesStore }) => Promise<void>,
  ): Promise<void> => {
    const { db, done } = await open();
    try {
      await migrate(db);
      const c = counting(db);
      await test({ db, c, store: new SqlSeriesStore(c.db) });
    } finally {
      await db.close();
      await done();
    }
  };
  const run = { id: 1, projectId: 1 };

  it('of 1,000 points over 50 cached series reads nothing and sends 2 statements, committed together', () =>
    withStore(async ({ c, store }) => {
      await store.appendMetrics(run, request(0));
      c.statements.length = 0;
      c.writes.transactions = 0;
      await store.appendMetrics(run, request(20));
      expect(heads(c.statements)).toEqual(CACHED_APPEND);
      expect(c.writes).toEqual({ transactions: 0, committed: 1 });
      const [loss] = await store.summarize([{ runId: 1, maxStep: Infinity }], ['train/m0']);
      expect(loss).toMatchObject({ points: 40, firstStep: 0, maxStep: 39 });
    }));

  it('falls back to locking and reading when another writer moved a cached series on', () =>
    withStore(async ({ db, c, store }) => {
      const other = new SqlSeriesStore(db);
      await store.appendMetrics(run, steps('loss', 0, 20));
      await other.appendMetrics(run, steps('loss', 20, 20));
      c.statements.length = 0;
      // The store's cached row and tail are of steps 0-19: its update of the series must fail.
      await store.appendMetrics(run, steps('loss', 40, 20));
      // Refused by the database, then stored by locking the row and reading the stored tail back.
      expect(heads(c.statements)).toEqual([
        ...CACHED_APPEND,
        'SELECT id, run_id,',
        'SELECT first_step, first_tie,',
        'INSERT INTO metric_chunks',
        'UPDATE series SET',
      ]);
      const points = await store.readPoints([{ runId: 1, maxStep: Infinity }], 'loss', 0, 1000);
      expect(points.map((p) => p.step)).toEqual(Array.from({ length: 60 }, (_, i) => i));
      const [loss] = await store.summarize([{ runId: 1, maxStep: Infinity }], ['loss']);
      expect(loss).toMatchObject({ points: 60, count: 60, firstStep: 0, maxStep: 59, lastValue: 59 });
      // The fallback cached the series again: the next append commits without a read.
      c.statements.length = 0;
      await store.appendMetrics(run, steps('loss', 60, 20));
      expect(heads(c.statements)).toEqual(CACHED_APPEND);
    }));

  it('appends a busy series in new chunks, and fills the tail of a series logged a point at a time', () =>
    withStore(async ({ db, c, store }) => {
      await store.appendMetrics(run, steps('busy', 0, 100));
      c.chunkKeys.length = 0;
      await store.appendMetrics(run, steps('busy', 100, 100));
      // The 100-point tail is more than half full and would overflow: the new points start a chunk.
      expect(c.chunkKeys).toEqual([100]);
      for (let step = 0; step < 130; step++) await store.appendMetrics(run, steps('slow', step, 1));
      const chunks = await db.all<{ log_name: string; first_step: number; points: number }>(
        'SELECT s.log_name, c.first_step, c.points FROM metric_chunks c JOIN series s ON s.id = c.series_id ' +
          'ORDER BY s.log_name, c.first_step',
      );
      expect(chunks.map((r) => [r.log_name, Number(r.first_step), Number(r.points)])).toEqual([
        ['busy', 0, 100],
        ['busy', 100, 100],
        ['slow', 0, 128],
        ['slow', 128, 2],
      ]);
      const points = await store.readPoints([{ runId: 1, maxStep: Infinity }], 'busy', 0, 1000);
      expect(points.map((p) => p.step)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    }));

  it('stores a batch that arrives after a later one as a chunk of its own, reading no chunk back', () =>
    withStore(async ({ c, store }) => {
      await store.appendMetrics(run, steps('loss', 0, 100, 1));
      await store.appendMetrics(run, steps('loss', 200, 100, 1));
      c.statements.length = 0;
      c.chunkKeys.length = 0;
      await store.appendMetrics(run, steps('loss', 100, 100, 1));
      expect(heads(c.statements)).toEqual(APPEND);
      expect(c.chunkKeys).toEqual([100]);
      // One point into the middle chunk and one between it and the tail: both land in place.
      await store.appendMetrics(run, [
        { logName: 'loss', step: 150, time: 2, value: -1 },
        { logName: 'loss', step: 250, time: 2, value: -2 },
      ]);
      const points = await store.readPoints([{ runId: 1, maxStep: Infinity }], 'loss', 0, 1000);
      expect(points.map((p) => p.step)).toEqual(Array.from({ length: 300 }, (_, i) => i));
      expect(points.filter((p) => p.value !== p.step).map((p) => [p.step, p.value])).toEqual([
        [150, -1],
        [250, -2],
      ]);
      const [summary] = await store.summarize([{ runId: 1, maxStep: Infinity }], ['loss']);
      expect(summary).toMatchObject({ points: 300, firstStep: 0, maxStep: 299 });
    }));

  it('rewrites a stored chunk in place when a re-logged value leaves its extremes as they were', () =>
    withStore(async ({ c, store }) => {
      // Values 0..299 at steps 0..299, in three chunks of 100.
      for (const from of [0, 100, 200]) await store.appendMetrics(run, steps('loss', from, 100, 1));
      const relog = async (step: number, value: number) => {
        c.statements.length = 0;
        await store.appendMetrics(run, [{ logName: 'loss', step, time: 2, value }]);
        return heads(c.statements);
      };
      // Step 50 of the first chunk (min 0, max 99): 50.5 changes neither extreme.
      expect(await relog(50, 50.5)).toContain('UPDATE metric_chunks SET');
      // Step 150 to -1: the second chunk's minimum moves, so its index entry is rewritten.
      expect(await relog(150, -1)).toContain('INSERT INTO metric_chunks');
      const points = await store.readPoints([{ runId: 1, maxStep: Infinity }], 'loss', 0, 1000);
      expect(points.filter((p) => p.value !== p.step).map((p) => [p.step, p.value])).toEqual([
        [50, 50.5],
        [150, -1],
      ]);
      // Sampled to at most 8 points, from the chunks' stored extremes: the new minimum is there.
      const [sampled] = await store.queryMetrics([{ runId: 1, maxStep: Infinity }], {
        logNames: ['loss'],
        stepMin: 0,
        stepMax: 299,
        limit: 8,
      });
      expect(sampled!.points.map((p) => p.value)).toContain(-1);
      const [summary] = await store.summarize([{ runId: 1, maxStep: Infinity }], ['loss']);
      expect(summary).toMatchObject({ points: 300, min: -1, max: 299 });
    }));
});
