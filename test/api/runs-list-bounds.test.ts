/**
 * GET /api/runs/list: the bounds on the work one filter may ask for (issue 25, items 1 and 5).
 * Empty objects count as conditions, $regex conditions and their pattern characters are
 * bounded, and the widest and deepest filters within the bounds compile to SQL both engines
 * accept: answered 200, never 500; a search past STEPWISE_QUERY_TIMEOUT is answered 400
 * QUERY_TIMEOUT. Runs on SQLite and (project `postgres`) PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, makeTestApp } from '../helpers/test-app.js';
import { createRun, expectError, tenAtATime } from '../helpers/run-api.js';
import { FILTER_SHAPES } from '../helpers/hostile-filters.js';

const t = await makeTestApp();
const slow = await makeTestApp({ STEPWISE_QUERY_TIMEOUT: '100ms' });
const PROJECT = 'bounds';

beforeAll(async () => {
  for (const name of ['alpha', 'beta']) {
    await createRun(t.app, t.key, { runName: name, projectName: PROJECT, config: JSON.stringify({ a: 1, s: name }) });
  }
});
afterAll(() => t.close());

const list = (filter: unknown) =>
  call(
    t.app,
    'GET',
    `/api/runs/list?projectName=${PROJECT}&filter=${encodeURIComponent(JSON.stringify(filter))}`,
    t.key,
  );

describe('GET /api/runs/list bounds the work of a filter', () => {
  it.each(FILTER_SHAPES.filter((s) => s.refused !== undefined))(
    'refuses $name with a 400 naming the bound',
    async ({ filter, refused }) => {
      const res = await list(filter);
      expectError(res, 400, 'BAD_REQUEST');
      expect(res.body.error).toContain(refused);
    },
  );

  it.each(FILTER_SHAPES.filter((s) => s.refused === undefined))(
    'answers $name within the bounds with 200',
    async ({ filter }) => {
      const res = await list(filter);
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    },
  );

  it('matches every run with an $or of 200 empty objects, as with one', async () => {
    const res = await list({ $or: Array.from({ length: 200 }, () => ({})) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.total).toBe(2);
  });
});

describe('GET /api/runs/list under STEPWISE_QUERY_TIMEOUT', () => {
  afterAll(() => slow.close());

  it('stops a search past its deadline with a 400 QUERY_TIMEOUT that asks for a narrower one', async () => {
    const config = JSON.stringify(
      Object.fromEntries(Array.from({ length: 40 }, (_, j) => [`key_${j}`, 'v'.repeat(24)])),
    );
    await tenAtATime(400, (i) => createRun(slow.app, slow.key, { runName: `r${i}`, projectName: 'slow', config }));
    const filter = {
      $or: Array.from({ length: 200 }, (_, i) => ({ [`config.key_${i % 40}`]: { $in: ['a', `b${i}`] } })),
    };
    const started = performance.now();
    const res = await call(
      slow.app,
      'GET',
      `/api/runs/list?projectName=slow&sort=config.key_1&filter=${encodeURIComponent(JSON.stringify(filter))}`,
      slow.key,
    );
    expectError(res, 400, 'QUERY_TIMEOUT');
    expect(res.body.error).toContain('100 ms');
    expect(res.body.error).toContain('narrow');
    expect(performance.now() - started).toBeLessThan(100 + 1_000 + 1_000);
  }, 60_000);
});
