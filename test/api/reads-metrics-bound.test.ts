/**
 * The per-response bound of the many-series reads: GET /api/runs/metrics answers at most
 * STEPWISE_READ_MAX_ITEMS points (default 100,000) and GET /api/runs/statistics at most as
 * many metrics; more is a 400 RESULT_TOO_LARGE that asks for logName or logGroup.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getMetrics, getStatistics, ingestSeries } from '../helpers/ingest-api.js';
import { createRun, expectError, type RunRef } from '../helpers/run-api.js';
import { call, makeTestApp, type TestApp } from '../helpers/test-app.js';

const BOUND = 100_000;

/** `count` metrics named g<i % 4>/m<i>, each valued by f(step, i). */
const wide = (count: number, f: (step: number, i: number) => number) =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`g${i % 4}/m${i}`, (s: number) => f(s, i)]));

function expectTooLarge(res: Awaited<ReturnType<typeof call>>, bound: number): void {
  expectError(res, 400, 'RESULT_TOO_LARGE');
  expect(res.body.error).toContain(String(bound));
  expect(res.body.error).toContain('logName');
  expect(res.body.error).toContain('logGroup');
}

describe('GET /api/runs/metrics: at most 100,000 points per answer by default', () => {
  let t: TestApp;
  let run: RunRef;
  const all = () => call(t.app, 'GET', `/api/runs/metrics?runId=${run.runId}`, t.key);
  beforeAll(async () => {
    t = await makeTestApp();
    run = await createRun(t.app, t.key, { runName: 'wide', projectName: 'p' });
    // 100 metrics × 1,000 steps: exactly the bound at the default limit (2,000 per metric).
    await ingestSeries(
      t.app,
      t.key,
      { runId: run.runId },
      0,
      999,
      wide(100, (s, i) => s * i),
    );
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  it('answers every point of a read that holds exactly the bound', async () => {
    const points = await getMetrics(t.app, t.key, { runId: run.runId });
    expect(points).toHaveLength(BOUND);
    expect(new Set(points.map((p) => p.logName)).size).toBe(100);
    expect(points.filter((p) => p.logName === 'g3/m7').map((p) => p.value)).toEqual(
      Array.from({ length: 1_000 }, (_, s) => s * 7),
    );
  });

  it('refuses one point more with a 400 that names the bound, logName and logGroup', async () => {
    await ingestSeries(t.app, t.key, { runId: run.runId }, 1_000, 1_000, { 'g0/m0': () => 1 });
    expectTooLarge(await all(), BOUND);
  });

  const narrowed: { name: string; params: Record<string, string | number>; points: number }[] = [
    { name: 'one logGroup', params: { logGroup: 'g0' }, points: 25 * 1_000 + 1 },
    { name: 'one logName', params: { logName: 'g0/m0' }, points: 1_001 },
    { name: 'a step range', params: { stepMax: 998 }, points: 100 * 999 },
    { name: 'a lower limit', params: { limit: 1 }, points: 100 },
  ];
  for (const n of narrowed) {
    it(`answers the same read narrowed to ${n.name}`, async () => {
      expect(await getMetrics(t.app, t.key, { runId: run.runId, ...n.params })).toHaveLength(n.points);
    });
  }
});

describe('STEPWISE_READ_MAX_ITEMS bounds the points of metrics and the metrics of statistics', () => {
  let t: TestApp;
  let run: RunRef;
  beforeAll(async () => {
    t = await makeTestApp({ STEPWISE_READ_MAX_ITEMS: '6' });
    run = await createRun(t.app, t.key, { runName: 'small', projectName: 'p' });
    // 8 metrics (two per group) × 1 step, so 8 points and 8 statistics; the bound is 6.
    await ingestSeries(
      t.app,
      t.key,
      { runId: run.runId },
      0,
      0,
      wide(8, (s, i) => i),
    );
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses metrics and statistics of all 8 metrics, over the bound of 6', async () => {
    expectTooLarge(await call(t.app, 'GET', `/api/runs/metrics?runId=${run.runId}`, t.key), 6);
    expectTooLarge(await call(t.app, 'GET', `/api/runs/statistics?runId=${run.runId}`, t.key), 6);
  });

  it('answers metrics and statistics of a run with 6 metrics, exactly at the bound', async () => {
    const six = await createRun(t.app, t.key, { runName: 'six', projectName: 'p' });
    await ingestSeries(
      t.app,
      t.key,
      { runId: six.runId },
      0,
      0,
      wide(6, (s, i) => i),
    );
    const points = await getMetrics(t.app, t.key, { runId: six.runId });
    expect(points.map((p) => p.value)).toEqual([0, 4, 1, 5, 2, 3]);
    const stats = await getStatistics(t.app, t.key, { runId: six.runId });
    expect(stats.metrics.map((m) => m.logName)).toEqual(['g0/m0', 'g0/m4', 'g1/m1', 'g1/m5', 'g2/m2', 'g3/m3']);
  });

  it('answers the statistics of one group in full', async () => {
    const stats = await getStatistics(t.app, t.key, { runId: run.runId, logGroup: 'g2' });
    expect(stats.metrics.map((m) => [m.logName, m.count, m.last?.value])).toEqual([
      ['g2/m2', 1, 2],
      ['g2/m6', 1, 6],
    ]);
  });
});
