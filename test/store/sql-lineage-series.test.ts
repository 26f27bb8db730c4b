/**
 * lineageMetricPages reads a lineage's metrics page by page (so no query or loop grows with
 * the number of metrics) and must yield exactly what lineageMetrics returns in one piece.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrations/index.js';
import type { SqlDb } from '../../src/store/sql/db.js';
import { lineageMetricPages, lineageMetrics, type MetricFilter } from '../../src/store/sql/metrics/lineage-series.js';
import { SqlSeriesStore } from '../../src/store/sql/series-store.js';
import { openSqlite } from '../../src/store/sqlite/sqlite-db.js';
import { lineage, loadLineage, VISIBLE_METRICS } from './lineage-pages-data.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-pages-'));
let db: SqlDb;
let store: SqlSeriesStore;
beforeAll(async () => {
  db = openSqlite(path.join(dir, 'series.db'));
  await migrate(db);
  store = new SqlSeriesStore(db);
  await loadLineage(store);
});
afterAll(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function paged(filter: MetricFilter, pageRows: number) {
  const out = [];
  for await (const page of lineageMetricPages(db, lineage, filter, pageRows)) out.push(...page);
  return out;
}

describe('lineageMetricPages', () => {
  for (const pageRows of [1, 4, 7, 50, 500]) {
    it(`yields what lineageMetrics returns, in the same order, with pages of ${pageRows} rows`, async () => {
      const whole = await lineageMetrics(db, lineage);
      expect(whole.length).toBe(VISIBLE_METRICS);
      expect(await paged({}, pageRows)).toEqual(whole);
      expect(await paged({ logGroup: 'shared' }, pageRows)).toEqual(
        await lineageMetrics(db, lineage, { logGroup: 'shared' }),
      );
    });
  }
});
