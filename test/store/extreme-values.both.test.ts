/**
 * Values at the ends of the double range on every engine: PostgreSQL raises an error where
 * IEEE arithmetic overflows to Infinity or underflows to 0, so the SQL that sums values in
 * the database must never do that. Each case re-logs a step with a new value, which makes
 * the store recompute the series' summary from its points.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openStores, type Stores } from '../../src/store/open-stores.js';
import { freshPostgresUrl, postgresTestUrl } from '../helpers/test-database.js';
import { tempDir } from '../helpers/temp-dir.js';

const own = [{ runId: 1, maxStep: Infinity }];

const engines: { name: string; open: () => Promise<{ stores: Stores; done: () => Promise<void> }> }[] = [
  {
    name: 'sqlite',
    open: async () => {
      const dir = tempDir('stepwise-extreme-');
      return { stores: await openStores({ dataDir: dir }), done: async () => fs.rmSync(dir, { recursive: true }) };
    },
  },
  ...(postgresTestUrl() === undefined
    ? []
    : [
        {
          name: 'postgres',
          open: async () => {
            const db = await freshPostgresUrl();
            return { stores: await openStores({ dataDir: '', databaseUrl: db.url }), done: db.drop };
          },
        },
      ]),
];

/** Cases an engine does not pass yet, by engine name (each with the reason). */
const KNOWN_FAILING: Record<string, string[]> = {};

const cases: { name: string; values: number[]; relog: number }[] = [
  { name: 'subnormal values', values: [5e-324, -5e-324, 0, 2e-320], relog: -7e-316 },
  { name: 'tiny deviations around one', values: [1, 1 + 2 ** -52, 1 - 2 ** -53], relog: 1 },
  { name: 'huge values of both signs', values: [1.7e308, -1.7e308, 1e300], relog: -1e308 },
  { name: 'values whose squares overflow', values: [3e154, -3e154, 1], relog: 2e154 },
];

describe.each(engines)('summaries of extreme values ($name)', ({ name, open }) => {
  it.each(cases)('$name: a re-logged step is summarised like the brute-force computation', async (c) => {
    if (KNOWN_FAILING[name]?.includes(c.name)) return;
    const { stores, done } = await open();
    try {
      const points = c.values.map((value, step) => ({ logName: 'x', step, time: 1, value }));
      await stores.series.appendMetrics({ id: 1, projectId: 1 }, points);
      await stores.series.appendMetrics({ id: 1, projectId: 1 }, [{ logName: 'x', step: 0, time: 2, value: c.relog }]);
      const values = [c.relog, ...c.values.slice(1)];
      const [summary] = await stores.series.summarize(own);
      expect(summary).toMatchObject({ count: values.length, min: Math.min(...values), max: Math.max(...values) });
      expect(summary!.lastValue).toBe(values.at(-1));
      const mean = values.reduce((a, v) => a + v / values.length, 0);
      if (Number.isFinite(mean) && Math.abs(mean) > 1e-300) expect(summary!.mean / mean).toBeCloseTo(1, 12);
      const board = await stores.series.projectSummaries(1, 'x');
      expect(board).toHaveLength(1);
    } finally {
      await stores.close();
      await done();
    }
  });
});
