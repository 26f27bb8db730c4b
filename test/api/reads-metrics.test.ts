import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRun, expectError } from '../helpers/run-api.js';
import { call, makeTestApp, type TestApp, useTestApp } from '../helpers/test-app.js';
import {
  getMetrics,
  getOk,
  ingestOk,
  ingestSeries,
  ISO_MS,
  metricLine,
  pyNdjson,
  type PyValue,
  qs,
} from '../helpers/ingest-api.js';
import type { RunRef } from '../../src/api/schemas/runs.js';

describe('GET /api/runs/metrics: filters, bounds and order', () => {
  const t = useTestApp();
  let run: RunRef;
  beforeEach(async () => {
    run = await createRun(t.app, t.key, { runName: 'r', projectName: 'proj' });
    await ingestSeries(t.app, t.key, { runId: run.runId }, 0, 20, {
      'train/loss': (s) => 10 - s / 4,
      'train/acc': (s) => s / 20,
      'val/loss': (s) => 11 - s / 5,
      Zeta: (s) => s,
      alpha: (s) => -s,
    });
  });

  const metrics = (params: Record<string, string | number | undefined>) =>
    getMetrics(t.app, t.key, { runId: run.runId, ...params });

  it('orders the points by logName (binary), then by step', async () => {
    const points = await metrics({});
    const names = [...new Set(points.map((p) => p.logName))];
    expect(names).toEqual(['Zeta', 'alpha', 'train/acc', 'train/loss', 'val/loss']);
    for (const name of names) {
      expect(points.filter((p) => p.logName === name).map((p) => p.step)).toEqual(
        Array.from({ length: 21 }, (_, i) => i),
      );
    }
    const order = points.map((p) => `${p.logName}\u0000${String(p.step).padStart(3, '0')}`);
    expect(order).toEqual([...order].sort());
  });

  it('answers each point with its group, an ISO time with milliseconds and its value', async () => {
    const [first] = await metrics({ logName: 'train/loss', stepMax: 0 });
    expect(first).toEqual({
      logName: 'train/loss',
      logGroup: 'train',
      time: '2023-11-14T22:13:20.000Z',
      step: 0,
      value: 10,
    });
    for (const p of await metrics({})) expect(p.time).toMatch(ISO_MS);
  });

  const filters: { name: string; params: Record<string, string | number>; names: string[]; steps: number[] }[] = [
    { name: 'an exact logName', params: { logName: 'train/loss' }, names: ['train/loss'], steps: range(0, 20) },
    { name: 'a logName that is only a prefix', params: { logName: 'train' }, names: [], steps: [] },
    { name: 'a logGroup', params: { logGroup: 'train' }, names: ['train/acc', 'train/loss'], steps: range(0, 20) },
    {
      name: 'the empty logGroup as no filter',
      params: { logGroup: '' },
      names: ['Zeta', 'alpha', 'train/acc', 'train/loss', 'val/loss'],
      steps: range(0, 20),
    },
    {
      name: 'stepMin and stepMax, both inclusive',
      params: { logName: 'alpha', stepMin: 5, stepMax: 8 },
      names: ['alpha'],
      steps: [5, 6, 7, 8],
    },
    {
      name: 'stepMin equal to stepMax',
      params: { logName: 'alpha', stepMin: 20, stepMax: 20 },
      names: ['alpha'],
      steps: [20],
    },
    { name: 'stepMin alone', params: { logName: 'Zeta', stepMin: 18 }, names: ['Zeta'], steps: [18, 19, 20] },
    { name: 'stepMax alone', params: { logName: 'Zeta', stepMax: 1 }, names: ['Zeta'], steps: [0, 1] },
    { name: 'a step range beyond the data', params: { stepMin: 100, stepMax: 200 }, names: [], steps: [] },
    {
      name: 'logName and logGroup together',
      params: { logName: 'val/loss', logGroup: 'val' },
      names: ['val/loss'],
      steps: range(0, 20),
    },
    {
      name: 'logName and a logGroup it is not in',
      params: { logName: 'val/loss', logGroup: 'train' },
      names: [],
      steps: [],
    },
  ];
  for (const f of filters) {
    it(`filters by ${f.name}`, async () => {
      const points = await metrics(f.params);
      expect([...new Set(points.map((p) => p.logName))]).toEqual(f.names);
      for (const name of f.names) expect(points.filter((p) => p.logName === name).map((p) => p.step)).toEqual(f.steps);
    });
  }

  it('applies limit to each logName separately, keeping the first and last point of each', async () => {
    const points = await metrics({ limit: 6 });
    for (const name of ['Zeta', 'alpha', 'train/acc', 'train/loss', 'val/loss']) {
      const steps = points.filter((p) => p.logName === name).map((p) => p.step);
      expect(steps.length).toBeGreaterThan(1);
      expect(steps.length).toBeLessThanOrEqual(6);
      expect(steps[0]).toBe(0);
      expect(steps.at(-1)).toBe(20);
      expect(steps).toEqual([...steps].sort((a, b) => a - b));
    }
  });

  it('counts the points in the step range before sampling in total, summed over the metrics', async () => {
    const total = async (params: Record<string, string | number>) =>
      (await call(t.app, 'GET', `/api/runs/metrics?${qs({ runId: run.runId, ...params })}`, t.key)).body.total;
    expect(await total({ logName: 'train/loss', limit: 6 })).toBe(21);
    expect(await total({ logName: 'train/loss' })).toBe(21);
    expect(await total({ logName: 'train/loss', stepMin: 5, stepMax: 9, limit: 2 })).toBe(5);
    expect(await total({ logGroup: 'train', limit: 3 })).toBe(42);
    expect(await total({ logName: 'nope' })).toBe(0);
  });

  it('returns a single point for limit 1', async () => {
    expect(await metrics({ logName: 'alpha', limit: 1 })).toHaveLength(1);
  });

  const bad: { name: string; params: Record<string, string | number> }[] = [
    { name: 'limit 0', params: { limit: 0 } },
    { name: 'limit 10001', params: { limit: 10_001 } },
    { name: 'a fractional limit', params: { limit: 2.5 } },
    { name: 'a limit that is not a number', params: { limit: 'many' } },
    { name: 'stepMin -1', params: { stepMin: -1 } },
    { name: 'stepMax -1', params: { stepMax: -1 } },
    { name: 'a fractional stepMin', params: { stepMin: 0.5 } },
    { name: 'stepMin greater than stepMax', params: { stepMin: 10, stepMax: 9 } },
  ];
  for (const b of bad) {
    it(`answers 400 for ${b.name}`, async () => {
      expectError(await call(t.app, 'GET', `/api/runs/metrics?${qs({ runId: run.runId, ...b.params })}`, t.key), 400);
    });
  }

  it('accepts the bounds themselves: limit 1 and 10000, stepMin 0', async () => {
    for (const params of [{ limit: 1 }, { limit: 10_000 }, { stepMin: 0 }]) {
      expect((await call(t.app, 'GET', `/api/runs/metrics?${qs({ runId: run.runId, ...params })}`, t.key)).status).toBe(
        200,
      );
    }
  });

  it('answers 400 without a runId', async () => {
    expectError(await call(t.app, 'GET', '/api/runs/metrics', t.key), 400);
  });

  it('answers 404 for an unknown run, a run of another organization, and a run outside the named project', async () => {
    expectError(await call(t.app, 'GET', '/api/runs/metrics?runId=987654', t.key), 404);
    expectError(await call(t.app, 'GET', `/api/runs/metrics?runId=${run.runId}`, t.otherKey), 404);
    expectError(await call(t.app, 'GET', `/api/runs/metrics?runId=${run.runId}&projectName=elsewhere`, t.key), 404);
    expect((await metrics({ projectName: 'proj', logName: 'alpha' })).length).toBe(21);
  });

  it('answers an empty list for a run without metrics', async () => {
    const empty = await createRun(t.app, t.key, { runName: 'e', projectName: 'proj' });
    expect(await getMetrics(t.app, t.key, { runId: empty.runId })).toEqual([]);
  });
});

describe('GET /api/runs/metrics: the default limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('returns all of a 2000-point series and at most 2000 of a 2500-point series by default', async () => {
    const run = await createRun(t.app, t.key, { runName: 'd', projectName: 'p' });
    await ingestSeries(t.app, t.key, { runId: run.runId }, 0, 1_999, { full: (s) => Math.sin(s / 50) });
    await ingestSeries(t.app, t.key, { runId: run.runId }, 0, 2_499, { over: (s) => Math.cos(s / 50) });
    const full = await getMetrics(t.app, t.key, { runId: run.runId, logName: 'full' });
    expect(full.map((p) => p.step)).toEqual(range(0, 1_999));
    const over = await getMetrics(t.app, t.key, { runId: run.runId, logName: 'over' });
    expect(over.length).toBeLessThanOrEqual(2_000);
    expect(over.length).toBeGreaterThan(1_000);
    expect(over[0]?.step).toBe(0);
    expect(over.at(-1)?.step).toBe(2_499);
  });
});

describe('GET /api/runs/metrics: a 200,000-point series', () => {
  const N = 200_000;
  const SPIKE_STEP = 123_457;
  const DIP_STEP = 7_771;
  const value = (s: number): number =>
    s === SPIKE_STEP ? 1_000 : s === DIP_STEP ? -1_000 : Math.sin(s / 1_000) + (s % 13) / 100;
  let t: TestApp;
  let run: RunRef;
  beforeAll(async () => {
    t = await makeTestApp();
    run = await createRun(t.app, t.key, { runName: 'long', projectName: 'big' });
    for (let from = 0; from < N; from += 10_000) {
      const lines: PyValue[] = [];
      for (let s = from; s < from + 10_000; s++) lines.push(metricLine(s, { loss: value(s) }));
      await ingestOk(t.app, t.key, 'metrics', { runId: run.runId, projectName: 'big' }, pyNdjson(lines));
    }
  }, 300_000);
  afterAll(async () => {
    await t.close();
  });

  it('counts all 200,000 points in the statistics', async () => {
    const res = await call(t.app, 'GET', `/api/runs/statistics?runId=${run.runId}`, t.key);
    expect(res.body.metrics).toMatchObject([
      { logName: 'loss', count: N, max: 1_000, min: -1_000, last: { step: N - 1, value: value(N - 1) } },
    ]);
  });

  it('keeps the spike, the dip, the first and the last point within limit=500, all of them real points', async () => {
    const points = await getMetrics(t.app, t.key, { runId: run.runId, logName: 'loss', limit: 500 });
    expect(points.length).toBeLessThanOrEqual(500);
    expect(points.length).toBeGreaterThan(250);
    expect(points[0]).toMatchObject({ step: 0, value: value(0) });
    expect(points.at(-1)).toMatchObject({ step: N - 1, value: value(N - 1) });
    expect(points.find((p) => p.step === SPIKE_STEP)?.value).toBe(1_000);
    expect(points.find((p) => p.step === DIP_STEP)?.value).toBe(-1_000);
    for (const p of points) expect(p.value).toBe(value(p.step));
    const steps = points.map((p) => p.step);
    for (let i = 1; i < steps.length; i++) expect(steps[i]!).toBeGreaterThan(steps[i - 1]!);
  });

  it('answers identically on two calls', async () => {
    const url = `/api/runs/metrics?runId=${run.runId}&limit=500`;
    const a = await call(t.app, 'GET', url, t.key);
    const b = await call(t.app, 'GET', url, t.key);
    expect(a.status).toBe(200);
    expect(b.body).toEqual(a.body);
  });

  it("answers the series' true count as total beside its sample, within a step range too", async () => {
    const url = (params: Record<string, number>) =>
      `/api/runs/metrics?${qs({ runId: run.runId, logName: 'loss', ...params })}`;
    const whole = await getOk<{ metrics: unknown[]; total: number }>(t.app, t.key, url({ limit: 500 }));
    expect(whole.metrics.length).toBeLessThanOrEqual(500);
    expect(whole.total).toBe(N);
    expect((await call(t.app, 'GET', url({ limit: 50, stepMin: 100_000, stepMax: 150_000 }), t.key)).body.total).toBe(
      50_001,
    );
  });

  it('keeps the spike when the step range is narrowed around it', async () => {
    const points = await getMetrics(t.app, t.key, { runId: run.runId, limit: 50, stepMin: 100_000, stepMax: 150_000 });
    expect(points.length).toBeLessThanOrEqual(50);
    expect(points[0]?.step).toBe(100_000);
    expect(points.at(-1)?.step).toBe(150_000);
    expect(points.some((p) => p.step === SPIKE_STEP)).toBe(true);
  });

  it('returns every point of a range that fits in the limit', async () => {
    const points = await getMetrics(t.app, t.key, { runId: run.runId, stepMin: 199_000, limit: 10_000 });
    expect(points.map((p) => p.step)).toEqual(range(199_000, N - 1));
  });
});

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
