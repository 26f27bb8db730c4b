import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import type { App } from '../../../src/api/app-types.js';
import { call, makeTestApp, type TestApp } from '../../helpers/test-app.js';

let t: TestApp;
let corsApp: App;
let anyOriginApp: App;
beforeAll(async () => {
  t = await makeTestApp();
  const config = { ...t.deps.config, corsOrigins: ['https://dash.example.com', 'http://localhost:5173'] };
  corsApp = await buildApp({ ...t.deps, config });
  anyOriginApp = await buildApp({ ...t.deps, config: { ...t.deps.config, corsOrigins: ['*'] } });
});
afterAll(async () => {
  await corsApp.close();
  await anyOriginApp.close();
  await t.close();
});

describe('CORS', () => {
  const origin = 'https://dash.example.com';

  it('is closed by default: no Access-Control header for any origin, and preflights are not answered', async () => {
    const res = await call(t.app, 'GET', '/api/runs/projects', t.key, undefined, { origin });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/runs/projects',
      headers: { origin, 'access-control-request-method': 'GET' },
    });
    expect(preflight.statusCode).toBe(404);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('allows a configured origin on answers, 401s included, and varies on Origin', async () => {
    const ok = await call(corsApp, 'GET', '/api/runs/projects', t.key, undefined, { origin });
    expect(ok.headers['access-control-allow-origin']).toBe(origin);
    expect(ok.headers.vary).toContain('Origin');
    const denied = await call(corsApp, 'GET', '/api/runs/projects', null, undefined, { origin });
    expect(denied.status).toBe(401);
    expect(denied.headers['access-control-allow-origin']).toBe(origin);
  });

  it('answers a preflight from a configured origin with 204 and the allowed methods and headers, without a key', async () => {
    const res = await corsApp.inject({
      method: 'OPTIONS',
      url: '/ingest/metrics',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-run-id' },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(origin);
    expect(res.headers['access-control-allow-headers']).toContain('x-run-id');
    expect(res.headers['access-control-allow-methods']).toContain('POST');
  });

  it('ignores an origin that is not configured', async () => {
    const res = await call(corsApp, 'GET', '/api/runs/projects', t.key, undefined, { origin: 'https://evil.example' });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await corsApp.inject({
      method: 'OPTIONS',
      url: '/api/runs/projects',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.statusCode).toBe(404);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('allows every origin with *', async () => {
    const res = await call(anyOriginApp, 'GET', '/api/health', null, undefined, { origin: 'https://x.example' });
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });
});
