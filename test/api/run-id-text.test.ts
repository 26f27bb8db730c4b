/**
 * Run ids and other integers written as text (query strings, path parameters, X-Run-Id)
 * follow one rule: decimal digits only. What Number() would also read (`0x10`, `1e3`, `+1`,
 * surrounding white space) is a 400 naming the parameter, never another run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRun, expectError } from '../helpers/run-api.js';
import { call, makeTestApp, type TestApp } from '../helpers/test-app.js';
import { ingest } from '../helpers/ingest-api.js';

// Read-only requests and one ingest per place: one app serves the whole file.
let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
  // Runs 1 to 16, so that `0x10` (16), `+1` and ` 1` would all name a real run.
  for (let i = 0; i < 16; i++) await createRun(t.app, t.key, { runName: `r${i}`, projectName: 'p' });
});
afterAll(async () => {
  await t.close();
});

const NOT_DIGITS = ['0x10', '1e1', '1e3', '+1', ' 1', '1 ', '1.0', '0b1', '1_0', '１'];

/** Every place a run id is written as text, as a request for that text. */
const PLACES: { place: string; send: (text: string) => ReturnType<typeof call> }[] = [
  {
    place: 'the runId query parameter',
    send: (text) => call(t.app, 'GET', `/api/runs/status/history?runId=${encodeURIComponent(text)}`, t.key),
  },
  {
    place: 'the runId path parameter',
    send: (text) => call(t.app, 'GET', `/api/runs/details/${encodeURIComponent(text)}`, t.key),
  },
  {
    place: 'the X-Run-Id header',
    send: (text) =>
      ingest(t.app, t.key, 'metrics', { runId: text, projectName: 'p' }, '{"time":1,"step":0,"data":{"a":1}}'),
  },
];

describe('run ids that are not decimal digits', () => {
  for (const { place, send } of PLACES) {
    it.each(NOT_DIGITS)(`%j in ${place} is a 400 naming runId`, async (text) => {
      const res = await send(text);
      expectError(res, 400);
      expect(res.body.error).toMatch(/run ?id/i);
    });

    it(`decimal digits in ${place} name the run`, async () => {
      expect((await send('16')).status).toBe(200);
    });
  }
});

describe('other integer query parameters', () => {
  it.each(['0x10', '1e1', '+5', ' 5'])('a limit of %j is a 400', async (text) => {
    const res = await call(t.app, 'GET', `/api/runs/logs?runId=1&limit=${encodeURIComponent(text)}`, t.key);
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.body.error).toMatch(/limit/);
  });
});
