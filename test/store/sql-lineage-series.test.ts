/**
 * lineageMetricPages reads a lineage's metrics page by page (so no query or loop grows with
 * the number of metrics) and must yield exactly what lineageMetrics returns in one piece.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LineageLink } from '../../src/domain/types.js';
import { migrate } from '../../src/store/migrations/index.js';
import type { SqlDb } from '../../src/store/sql/db.js';
import { lineageMetricPages, lineageMetrics, type MetricFilter } from '../../src/store/sql/metrics/lineage-series.js';
import { SqlSeriesStore } from '../../src/store/sql/series-store.js';
import { openSqlite } from '../../src/store/sqlite/sqlite-db.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-pages-'));
let db: SqlDb;
let store: SqlSeriesStore;
/** Run 3 forks run 2 at step 5, which forks run 1 at step 7. */
const lineage: LineageLink[] = [
  { runId: 3, maxStep: Infinity },
  { runId: 2, maxStep: 5 },
  { runId: 1, maxStep: 7 },
];

beforeAll(async () => {
  db = openSqlite(path.join(dir, 'series.db'));
  await migrate(db);
  store = new SqlSeriesStore(db);
  // Names shared by several runs, names of one run only, names visible only past a fork
  // step (left out), and code points whose UTF-16 order differs from code point order.
  const names = (prefix: string, n: number) =>
    Array.from({ length: n }, (_, i) => `${prefix}/${String(i).padStart(2, '0')}`);
  const point = (logName: string, step: number) => ({ logName, step, time: step, value: step });
  await store.appendMetrics(
    { id: 1, projectId: 1 },
    [...names('a', 20), ...names('shared', 15), '\u{1F600}', '\uFFFD'].map((n) => point(n, 3)),
  );
  await store.appendMetrics(
    { id: 2, projectId: 1 },
    [...names('b', 12), ...names('shared', 15)].map((n) => point(n, 4)),
  );
  await store.appendMetrics(
    { id: 2, projectId: 1 },
    names('late', 6).map((n) => point(n, 9)),
  );
  await store.appendMetrics(
    { id: 3, projectId: 1 },
    [...names('c', 9), ...names('shared', 15)].map((n) => point(n, 6)),
  );
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
      expect(whole.length).toBe(20 + 15 + 2 + 12 + 9);
      expect(await paged({}, pageRows)).toEqual(whole);
      expect(await paged({ logGroup: 'shared' }, pageRows)).toEqual(
        await lineageMetrics(db, lineage, { logGroup: 'shared' }),
      );
    });
  }
});
