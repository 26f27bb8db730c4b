/**
 * Series written before issue 14 kept rollups only up to level 11. One with steps of 2^26 or
 * more must still be read right and fast (from its points: its rollups are too shallow for a
 * wide span), and its next write must build the missing levels so reads use rollups again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_ROLLUP_LEVEL } from '../../src/domain/rollup.js';
import { migrate } from '../../src/store/migrations/index.js';
import type { SqlDb } from '../../src/store/sql/sql-db.js';
import { SqlSeriesStore } from '../../src/store/sql/sql-series-store.js';
import { openSqlite } from '../../src/store/sqlite/sqlite-db.js';
import { freshPostgresUrl, postgresTestUrl } from '../helpers/test-database.js';

const HUGE = Number.MAX_SAFE_INTEGER;
const own = [{ runId: 1, maxStep: Infinity }];

const engines: { name: string; open: () => Promise<{ db: SqlDb; done: () => Promise<void> }> }[] = [
  {
    name: 'sqlite',
    open: async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-legacy-rollups-'));
      const db = openSqlite(path.join(dir, 'series.db'));
      return { db, done: async () => fs.rmSync(dir, { recursive: true, force: true }) };
    },
  },
  ...(postgresTestUrl() === undefined
    ? []
    : [
        {
          name: 'postgres',
          open: async () => {
            const fresh = await freshPostgresUrl();
            const { openPostgres } = await import('../../src/store/postgres/postgres-db.js');
            return { db: await openPostgres(fresh.url), done: fresh.drop };
          },
        },
      ]),
];

/** Returns the sampled points of `loss` over 0..2^53−1 and asserts the read took under 2 s. */
async function timedRead(series: SqlSeriesStore, limit: number) {
  const started = performance.now();
  const [answer] = await series.queryMetrics(own, { logNames: ['loss'], stepMin: 0, stepMax: HUGE, limit });
  expect(performance.now() - started).toBeLessThan(2000);
  return (answer?.points ?? []).map((p) => [p.step, p.value]);
}

describe.each(engines)('series with rollups kept only to level 11 ($name)', ({ open }) => {
  it('are read right within 2 s, and their next write builds the levels up to 25', async () => {
    const { db, done } = await open();
    const series = new SqlSeriesStore(db);
    try {
      await migrate(db);
      const points = [0, 1, 2, 1e15, HUGE].map((step, i) => ({ logName: 'loss', step, time: 1, value: i }));
      await series.appendMetrics({ id: 1, projectId: 1 }, points);
      // What the level-11 cap left behind.
      await db.run('DELETE FROM metric_rollups WHERE level > 11');
      await db.run('UPDATE series SET rollup_level = 11');
      const all = points.map((p) => [p.step, p.value]);
      expect(await timedRead(series, 2000)).toEqual(all);
      expect(await timedRead(series, 4)).toEqual([all[0], all[1], all[3], all[4]]);

      await series.appendMetrics({ id: 1, projectId: 1 }, [{ logName: 'loss', step: 3, time: 1, value: -1 }]);
      const row = await db.get<{ top: number | string }>('SELECT rollup_level AS top FROM series');
      expect(Number(row?.top)).toBe(MAX_ROLLUP_LEVEL);
      const top = await db.get<{ points: number | string }>('SELECT points FROM metric_rollups WHERE level = ?', [
        MAX_ROLLUP_LEVEL,
      ]);
      expect(Number(top?.points)).toBe(6);
      expect(await timedRead(series, 4)).toEqual([all[0], [3, -1], all[4]]);
    } finally {
      await series.close();
      await done();
    }
  });
});
