/**
 * The per-read bounds of the many-series reads: GET /api/runs/metrics answers a read that
 * asks for at most STEPWISE_READ_MAX_POINTS points (default 2,000,000; per metric min(limit,
 * its points in range), counted before anything is sent) in full, streamed; more is a 400
 * RESULT_TOO_LARGE that asks for logName or logGroup. GET /api/runs/statistics answers at most
 * STEPWISE_READ_MAX_ITEMS metrics (default 100,000).
 */
import { once } from 'node:events';
import http from 'node:http';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getMetrics, getStatistics, ingestSeries } from '../helpers/ingest-api.js';
import { createRun, expectError } from '../helpers/run-api.js';
import { call, makeTestApp, type TestApp } from '../helpers/test-app.js';
import type { MetricPoint } from '../../src/api/schemas/metrics.js';
import type { RunRef } from '../../src/api/schemas/runs.js';

/** `count` metrics named g<i % 4>/m<i>, each valued by f(step, i). */
const wide = (count: number, f: (step: number, i: number) => number) =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`g${i % 4}/m${i}`, (s: number) => f(s, i)]));

/** Ingests `count` metrics (wide) of one point each, valued by their index, at step 0. */
const ingestOnePointEach = (app: TestApp['app'], key: string, runId: number, count: number) =>
  ingestSeries(
    app,
    key,
    { runId },
    0,
    0,
    wide(count, (s, i) => i),
  );

function expectTooLarge(res: Awaited<ReturnType<typeof call>>, bound: number): void {
  expectError(res, 400, 'RESULT_TOO_LARGE');
  expect(res.body.error).toContain(String(bound));
  expect(res.body.error).toContain('logName');
  expect(res.body.error).toContain('logGroup');
}

/** Groups an answer's points by logName, in answer order. */
function byName(points: readonly MetricPoint[]): Map<string, MetricPoint[]> {
  const out = new Map<string, MetricPoint[]>();
  for (const p of points) {
    const held = out.get(p.logName);
    if (held) held.push(p);
    else out.set(p.logName, [p]);
  }
  return out;
}

describe('GET /api/runs/metrics answers the pluto client read of every metric at limit=10,000', () => {
  // pluto.query.get_metrics(project, run): 30 metrics × 10,050 steps, 300,000 points asked for.
  const METRICS = 30;
  const STEPS = 10_050;
  let t: TestApp;
  let run: RunRef;
  beforeAll(async () => {
    t = await makeTestApp();
    run = await createRun(t.app, t.key, { runName: 'training', projectName: 'p' });
    const values = wide(METRICS, (s, i) => Math.sin(s / 100 + i) * (i + 1));
    for (let from = 0; from < STEPS; from += 2_010) {
      await ingestSeries(t.app, t.key, { runId: run.runId, projectName: 'p' }, from, from + 2_009, values);
    }
  }, 240_000);
  afterAll(async () => {
    await t.close();
  });

  it('answers 200 with every metric as its own read answers it, streamed as JSON with the usual headers', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/runs/metrics?runId=${run.runId}&projectName=p&limit=10000`,
      headers: { authorization: `Bearer ${t.key}` },
    });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    const body = res.json<{ metrics: MetricPoint[] }>();
    const doc = (await call(t.app, 'GET', '/api/openapi.json', null)).body as {
      paths: Record<string, { get: { responses: Record<string, { content: Record<string, { schema: object }> }> } }>;
    };
    const schema = doc.paths['/api/runs/metrics']!.get.responses['200']!.content['application/json']!.schema;
    const validate = new Ajv({ strict: false }).compile(schema);
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    const answered = byName(body.metrics);
    expect(answered.size).toBe(METRICS);
    expect(body.metrics.length).toBeGreaterThan(METRICS * 9_990);
    for (const [logName, points] of answered) {
      expect(points.length).toBeLessThanOrEqual(10_000);
      expect(points, logName).toEqual(await getMetrics(t.app, t.key, { runId: run.runId, logName, limit: 10_000 }));
    }
  }, 120_000);

  it('reads the series only as fast as the client takes the answer, and stops when the client goes away', async () => {
    const store = t.deps.series;
    const original = store.metricSeries.bind(store);
    let pulled = 0;
    let finished = false;
    store.metricSeries = (lineage, q) =>
      (async function* () {
        try {
          for await (const s of original(lineage, q)) {
            pulled++;
            yield s;
          }
        } finally {
          finished = true;
        }
      })();
    try {
      const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const req = http.get(`${base}/api/runs/metrics?runId=${run.runId}&limit=10000`, {
        headers: { authorization: `Bearer ${t.key}` },
      });
      const [res] = (await once(req, 'response')) as [http.IncomingMessage];
      expect(res.statusCode).toBe(200);
      await once(res, 'data');
      res.pause();
      // ~31 MB of answer; what the socket buffers hold is a few metrics of ~1 MB each.
      await new Promise((r) => setTimeout(r, 1_000));
      expect(pulled).toBeGreaterThan(0);
      expect(pulled).toBeLessThan(METRICS / 2);
      expect(finished).toBe(false);
      req.destroy();
      for (let waited = 0; !finished && waited < 5_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
      expect(finished).toBe(true);
      expect(pulled).toBeLessThan(METRICS / 2);
    } finally {
      store.metricSeries = original;
    }
  }, 60_000);
});

describe('STEPWISE_READ_MAX_POINTS bounds the points one metrics read asks for', () => {
  const BOUND = 100_000;
  let t: TestApp;
  let run: RunRef;
  const all = () => call(t.app, 'GET', `/api/runs/metrics?runId=${run.runId}`, t.key);
  beforeAll(async () => {
    t = await makeTestApp({ STEPWISE_READ_MAX_POINTS: String(BOUND) });
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

  it('answers every point of a read that asks for exactly the bound', async () => {
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

  // The step ranges cut each series' last (or first) chunk: counted exactly, not by whole chunks.
  const narrowed: { name: string; params: Record<string, string | number>; points: number }[] = [
    { name: 'one logGroup', params: { logGroup: 'g0' }, points: 25 * 1_000 + 1 },
    { name: 'one logName', params: { logName: 'g0/m0' }, points: 1_001 },
    { name: 'a step range up to step 998', params: { stepMax: 998 }, points: 100 * 999 },
    { name: 'a step range from step 1', params: { stepMin: 1 }, points: 99 * 999 + 1_000 },
    { name: 'a lower limit', params: { limit: 1 }, points: 100 },
  ];
  for (const n of narrowed) {
    it(`answers the same read narrowed to ${n.name}`, async () => {
      expect(await getMetrics(t.app, t.key, { runId: run.runId, ...n.params })).toHaveLength(n.points);
    });
  }

  it("answers a fork at step 998 in full: its parent's series are cut at the fork step", async () => {
    const fork = await createRun(t.app, t.key, {
      runName: 'fork',
      projectName: 'p',
      forkRunId: run.runId,
      forkStep: 998,
    });
    expect(await getMetrics(t.app, t.key, { runId: fork.runId })).toHaveLength(100 * 999);
    // Re-logging inherited steps replaces points, it does not add to the count.
    await ingestSeries(t.app, t.key, { runId: fork.runId }, 0, 9, { 'g0/m0': () => -1 });
    const points = await getMetrics(t.app, t.key, { runId: fork.runId });
    expect(points).toHaveLength(100 * 999);
    expect(points.filter((p) => p.logName === 'g0/m0' && p.step < 10).every((p) => p.value === -1)).toBe(true);
  });
});

describe('STEPWISE_READ_MAX_ITEMS bounds the metrics of statistics, STEPWISE_READ_MAX_POINTS the points of metrics', () => {
  let t: TestApp;
  let run: RunRef;
  beforeAll(async () => {
    t = await makeTestApp({ STEPWISE_READ_MAX_ITEMS: '6', STEPWISE_READ_MAX_POINTS: '6' });
    run = await createRun(t.app, t.key, { runName: 'small', projectName: 'p' });
    // 8 metrics (two per group) × 1 step, so 8 points and 8 statistics; the bounds are 6.
    await ingestOnePointEach(t.app, t.key, run.runId, 8);
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses metrics and statistics of all 8 metrics, over the bounds of 6', async () => {
    expectTooLarge(await call(t.app, 'GET', `/api/runs/metrics?runId=${run.runId}`, t.key), 6);
    expectTooLarge(await call(t.app, 'GET', `/api/runs/statistics?runId=${run.runId}`, t.key), 6);
  });

  it('answers metrics and statistics of a run with 6 metrics, exactly at the bounds', async () => {
    const six = await createRun(t.app, t.key, { runName: 'six', projectName: 'p' });
    await ingestOnePointEach(t.app, t.key, six.runId, 6);
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

  it('answers the points of all 8 metrics when only STEPWISE_READ_MAX_ITEMS is 6', async () => {
    const other = await makeTestApp({ STEPWISE_READ_MAX_ITEMS: '6' });
    try {
      const eight = await createRun(other.app, other.key, { runName: 'eight', projectName: 'p' });
      await ingestOnePointEach(other.app, other.key, eight.runId, 8);
      expect(await getMetrics(other.app, other.key, { runId: eight.runId })).toHaveLength(8);
      expectTooLarge(await call(other.app, 'GET', `/api/runs/statistics?runId=${eight.runId}`, other.key), 6);
    } finally {
      await other.close();
    }
  });
});
