/**
 * One ingest request is a handful of statements whatever its size: with the series' tail
 * chunks cached, a 1,000-point request over 50 metrics locks the series rows (one select),
 * upserts the touched chunks and the series summaries (one bulk statement each).
 */
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrations/index.js';
import type { SqlDb, SqlExecutor } from '../../src/store/sql/sql-db.js';
import { SqlSeriesStore } from '../../src/store/sql/sql-series-store.js';
import { rawEngines } from '../helpers/test-database.js';

const engines = rawEngines('stepwise-ingest-statements-');

/** The database with every statement run inside a transaction counted (a bulk INSERT of ≤ 500 rows is one). */
function counting(db: SqlDb): { db: SqlDb; statements: string[] } {
  const statements: string[] = [];
  const wrap = (tx: SqlExecutor): SqlExecutor => ({
    all: (sql, params) => (statements.push(sql), tx.all(sql, params)),
    allArrays: (sql, params) => (statements.push(sql), tx.allArrays(sql, params)),
    get: (sql, params) => (statements.push(sql), tx.get(sql, params)),
    run: (sql, params) => (statements.push(sql), tx.run(sql, params)),
    runMany: (sql, rows) => {
      const one = /^\s*INSERT/i.test(sql) && rows.length <= 500;
      for (let i = 0; i < (one ? 1 : rows.length); i++) statements.push(sql);
      return tx.runMany(sql, rows);
    },
  });
  return { db: { ...db, transaction: (fn) => db.transaction((tx) => fn(wrap(tx))) }, statements };
}

/** 1,000 points: 20 steps from `from` of 50 metrics. */
function request(from: number) {
  const out = [];
  for (let step = from; step < from + 20; step++) {
    for (let m = 0; m < 50; m++) out.push({ logName: `train/m${m}`, step, time: step, value: Math.sin(step + m) });
  }
  return out;
}

describe.each(engines)('an ingest request ($name)', ({ open }) => {
  it('of 1,000 points over 50 cached series runs 3 statements in its transaction', async () => {
    const { db, done } = await open();
    try {
      await migrate(db);
      const c = counting(db);
      const store = new SqlSeriesStore(c.db);
      await store.appendMetrics({ id: 1, projectId: 1 }, request(0));
      c.statements.length = 0;
      await store.appendMetrics({ id: 1, projectId: 1 }, request(20));
      expect(c.statements.map((s) => s.split(' ').slice(0, 3).join(' '))).toEqual([
        'SELECT id, run_id,',
        'INSERT INTO metric_chunks',
        'INSERT INTO series',
      ]);
      const [loss] = await store.summarize([{ runId: 1, maxStep: Infinity }], ['train/m0']);
      expect(loss).toMatchObject({ points: 40, firstStep: 0, maxStep: 39 });
    } finally {
      await db.close();
      await done();
    }
  });
});
