/**
 * lineageMetricPages on every engine: PostgreSQL reads its pages through readMany, each page
 * after the first from its first row by id, and must yield what lineageMetrics returns in one
 * piece; a page whose first row was deleted between two pages is read again by its name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrations/index.js';
import type { SqlDb } from '../../src/store/sql/db.js';
import {
  lineageMetricPages,
  lineageMetrics,
  type LineageMetric,
  type MetricFilter,
} from '../../src/store/sql/metrics/lineage-series.js';
import { SqlSeriesStore } from '../../src/store/sql/series-store.js';
import { rawEngines } from '../helpers/test-database.js';
import { lineage, loadLineage, VISIBLE_METRICS } from './lineage-pages-data.js';

for (const engine of rawEngines('stepwise-pages-')) {
  describe(`lineageMetricPages on ${engine.name}`, () => {
    let db: SqlDb;
    let done: () => Promise<void>;
    beforeAll(async () => {
      ({ db, done } = await engine.open());
      await migrate(db);
      await loadLineage(new SqlSeriesStore(db));
    });
    afterAll(async () => {
      await db.close();
      await done();
    });

    async function paged(filter: MetricFilter, pageRows: number, afterFirst?: () => Promise<void>) {
      const out: LineageMetric[] = [];
      for await (const page of lineageMetricPages(db, lineage, filter, pageRows)) {
        const first = out.length === 0;
        out.push(...page);
        if (first) await afterFirst?.();
      }
      return out;
    }

    it('yields what lineageMetrics returns, in the same order, with pages of 1, 4, 7 and 500 rows', async () => {
      const whole = await lineageMetrics(db, lineage);
      expect(whole.length).toBe(VISIBLE_METRICS);
      const shared = await lineageMetrics(db, lineage, { logGroup: 'shared' });
      for (const pageRows of [1, 4, 7, 500]) {
        expect(await paged({}, pageRows)).toEqual(whole);
        expect(await paged({ logGroup: 'shared' }, pageRows)).toEqual(shared);
      }
    });

    it('reads on by name when the row a page starts at is deleted after the page before', async () => {
      // Pages of 4 rows: the first holds a/00 to a/03 (run 1 only) and yields a/00 to a/02;
      // the next starts at a/03's row.
      const out = await paged({}, 4, async () => {
        await db.run('DELETE FROM series WHERE log_name = ?', ['a/03']);
      });
      expect(out.slice(0, 3).map((m) => m.logName)).toEqual(['a/00', 'a/01', 'a/02']);
      const after = await lineageMetrics(db, lineage);
      expect(after.length).toBe(VISIBLE_METRICS - 1);
      expect(out).toEqual(after);
    });
  });
}
