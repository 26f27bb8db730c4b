/**
 * U+0000 inside a JSON-encoded field (config, systemMetadata, statusMetadata): PostgreSQL's
 * JSON cannot hold it, and a stored config holding one made every run search over that
 * project's config a 500. Such values are refused with a 400 on every engine, nothing is
 * written, and search keeps answering.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createRun, expectError, getDetails } from '../helpers/run-api.js';
import { call, useTestApp } from '../helpers/test-app.js';
import type { RunRef } from '../../src/api/schemas/runs.js';

const t = useTestApp();
let run: RunRef;
beforeEach(async () => {
  run = await createRun(t.app, t.key, { runName: 'r', projectName: 'p', config: '{"lr":0.1}' });
});

const NUL_VALUE = '{"lr":"x\\u0000y"}';
const NUL_KEY = '{"l\\u0000r":1}';

describe('a JSON-encoded field holding U+0000', () => {
  const cases: { name: string; url: string; body: () => Record<string, unknown> }[] = [
    {
      name: 'a create config value',
      url: '/api/runs/create',
      body: () => ({ runName: 'n', projectName: 'p', config: NUL_VALUE }),
    },
    {
      name: 'a create config key',
      url: '/api/runs/create',
      body: () => ({ runName: 'n', projectName: 'p', config: NUL_KEY }),
    },
    { name: 'a config update', url: '/api/runs/config/update', body: () => ({ runId: run.runId, config: NUL_VALUE }) },
  ];

  it.each(cases)('is refused with a 400 naming the character: $name', async ({ url, body }) => {
    const res = await call(t.app, 'POST', url, t.key, body());
    expectError(res, 400, 'BAD_REQUEST');
    expect(String(res.body.error)).toContain('U+0000');
    expect((await getDetails(t.app, t.key, run.runId)).config).toEqual({ lr: 0.1 });
  });

  it('leaves run search over the config answering', async () => {
    await call(t.app, 'POST', '/api/runs/create', t.key, { runName: 'n', projectName: 'p', config: NUL_VALUE });
    const filter = encodeURIComponent('{"config.lr":{"$gt":0}}');
    const res = await call(t.app, 'GET', `/api/runs/list?projectName=p&filter=${filter}&sort=config.lr`, t.key);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.total).toBe(1);
  });
});
