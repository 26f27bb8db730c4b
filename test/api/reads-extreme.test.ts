import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, makeTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let runId: number;
beforeAll(async () => {
  t = await makeTestApp();
  runId = Number((await call(t.app, 'POST', '/api/runs/create', t.key, { runName: 'r', projectName: 'p' })).body.runId);
  const lines = [1.7e308, -1.7e308, 1e300].map((v, step) => JSON.stringify({ time: 1, step, data: { x: v } }));
  const res = await t.app.inject({
    method: 'POST',
    url: '/ingest/metrics',
    headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/x-ndjson', 'x-run-id': String(runId) },
    payload: lines.join('\n'),
  });
  expect(res.statusCode).toBe(200);
});
afterAll(() => t.close());

describe('reads of a metric whose moments overflow (values near ±1.7e308)', () => {
  it('statistics answer 200 with the exact count, min and max', async () => {
    const res = await call(t.app, 'GET', `/api/runs/statistics?runId=${runId}&projectName=p`, t.key);
    expect(res.status).toBe(200);
    const [m] = res.body.metrics as { count: number; min: number; max: number; mean: number | null }[];
    expect(m).toMatchObject({ count: 3, min: -1.7e308, max: 1.7e308 });
    expect(m!.mean === null || Number.isFinite(m!.mean)).toBe(true);
  });

  it('compare answers 200 with the final value', async () => {
    const res = await call(t.app, 'GET', `/api/runs/compare?runIds=${runId}&projectName=p&logName=x`, t.key);
    expect(res.status).toBe(200);
    expect((res.body.runs as { stats: { final: number } }[])[0]?.stats.final).toBe(1e300);
  });
});
