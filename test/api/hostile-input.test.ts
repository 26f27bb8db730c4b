/**
 * Hostile input on every route but the POST /api/runs/* writes (hostile-input-run-writes.test.ts
 * takes those), then what must hold after it: accepted input reads back in bounded time, a
 * refused ingest body stores nothing, and U+0000 is handled the same on every engine.
 */
import { describe, expect, it } from 'vitest';
import { hostileRouteTests, withKey } from '../helpers/hostile-route-tests.js';
import { HUGE_STEP_METRIC } from '../helpers/hostile-wire-inputs.js';
import { isRunWrite } from '../helpers/route-requests.js';

const { t, target } = await hostileRouteTests((route) => !isRunWrite(route));

describe('after every hostile input', () => {
  it('reads back whatever was accepted, huge steps included, in bounded time', async () => {
    const reads = [
      `/api/runs/metrics?runId=${target().runId}&logName=${encodeURIComponent(HUGE_STEP_METRIC)}`,
      `/api/runs/metrics?runId=${target().runId}&logName=${encodeURIComponent(HUGE_STEP_METRIC)}&stepMin=0`,
      `/api/runs/statistics?runId=${target().runId}`,
      `/api/runs/data?runId=${target().runId}`,
      `/api/runs/files?runId=${target().runId}`,
    ];
    for (const url of reads) {
      const started = performance.now();
      const res = await t.app.inject(withKey({ method: 'GET', url }, t.key));
      expect(res.statusCode, `${url}: ${res.body.slice(0, 160)}`).toBeLessThan(500);
      expect(performance.now() - started, url).toBeLessThan(2_000);
    }
  });
});

describe('atomicity of refused ingest', () => {
  it('stores nothing of a body whose last line is bad', async () => {
    const stats = async () =>
      (await t.app.inject(withKey({ method: 'GET', url: `/api/runs/statistics?runId=${target().runId}` }, t.key))).body;
    const before = await stats();
    const lines = Array.from({ length: 50 }, (_, i) =>
      JSON.stringify({ time: 1, step: 100 + i, data: { [target().metricName]: i } }),
    );
    const res = await t.app.inject(
      withKey(
        {
          method: 'POST',
          url: '/ingest/metrics',
          payload: `${lines.join('\n')}\n{"time":1,"step":-1,"data":{}}`,
          headers: { 'content-type': 'application/x-ndjson', 'x-run-id': String(target().runId) },
        },
        t.key,
      ),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: expect.any(String), error: expect.stringContaining('line 51') });
    expect(await stats()).toEqual(before);
  });
});

describe('U+0000, which not every engine can store, is handled the same on all of them', () => {
  const post = (url: string, payload: string, type = 'application/json') =>
    t.app.inject(
      withKey(
        {
          method: 'POST',
          url,
          payload,
          headers: { 'content-type': type, 'x-run-id': String(target().runId), 'x-project-name': target().projectName },
        },
        t.key,
      ),
    );

  it('refuses a JSON body or a URL carrying it with a 400, but takes the literal text \\u0000', async () => {
    const nul = await post('/api/runs/notes/update', `{"runId":${target().runId},"notes":"a\\u0000b"}`);
    expect(nul.statusCode).toBe(400);
    expect(nul.json()).toEqual({
      error: 'text in the body must not contain the NUL character (U+0000)',
      code: 'BAD_REQUEST',
    });
    const literal = await post('/api/runs/notes/update', `{"runId":${target().runId},"notes":"a\\\\u0000b"}`);
    expect(literal.statusCode).toBe(200);
    const url = await t.app.inject(
      withKey({ method: 'GET', url: `/api/runs/logs?runId=${target().runId}&logType=%00` }, t.key),
    );
    expect(url.statusCode).toBe(400);
  });

  it('refuses it in metric and data names, and keeps it as U+FFFD in log messages and text data', async () => {
    const metric = await post('/ingest/metrics', '{"time":1,"step":0,"data":{"a\\u0000b":1}}', 'application/x-ndjson');
    expect(metric.statusCode).toBe(400);
    const log = await post(
      '/ingest/logs',
      '{"time":1,"message":"x\\u0000y","lineNumber":77,"logType":"INFO"}',
      'application/x-ndjson',
    );
    expect(log.statusCode).toBe(200);
    const logs = await t.app.inject(
      withKey({ method: 'GET', url: `/api/runs/logs?runId=${target().runId}&limit=10000` }, t.key),
    );
    expect(
      logs.json<{ logs: { lineNumber: number; message: string }[] }>().logs.find((l) => l.lineNumber === 77)?.message,
    ).toBe('x\ufffdy');
  });
});
