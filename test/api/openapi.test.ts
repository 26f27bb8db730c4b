import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, makeTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(() => t.close());

describe('GET /api/openapi.json', () => {
  it('is served without a key as an OpenAPI 3 document', async () => {
    const res = await call(t.app, 'GET', '/api/openapi.json', null);
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
  });

  it('documents every route the server answers, with its method', async () => {
    const doc = (await call(t.app, 'GET', '/api/openapi.json', null)).body as { paths: Record<string, object> };
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`)),
    );
    const expected = [
      'POST /api/runs/create',
      'POST /api/runs/resume',
      'GET /api/runs/details/{runId}',
      'GET /api/runs/details/by-display-id/{displayId}',
      'GET /api/runs/{sqid}',
      'POST /api/runs/status/update',
      'GET /api/runs/status/history',
      'GET /api/runs/leaderboard',
      'GET /api/runs/groups',
      'GET /api/runs/groups/metrics',
      'GET /api/runs/statistics',
      'GET /api/runs/compare',
      'GET /api/runs/files',
      'GET /api/runs/logs',
      'GET /api/runs/metrics',
      'GET /api/runs/metric-names',
      'GET /api/runs/projects',
      'GET /api/runs/auth/validate',
      'POST /api/runs/modelGraph/create',
      'POST /api/runs/logName/add',
      'POST /api/runs/notes/update',
      'POST /api/runs/config/update',
      'POST /api/runs/tags/update',
      'POST /ingest/metrics',
      'POST /ingest/logs',
      'POST /ingest/data',
      'POST /files',
      'POST /api/runs/trigger',
      'POST /api/runs/alert',
      'POST /api/slug',
      'POST /api/session',
      'DELETE /api/session',
      'GET /api/keys',
      'POST /api/keys',
      'POST /api/keys/{keyId}/revoke',
    ];
    for (const route of expected) expect(documented, route).toContain(route);
  });

  it('describes the leaderboard parameters with their bounds and defaults', async () => {
    const doc = (await call(t.app, 'GET', '/api/openapi.json', null)).body as {
      paths: Record<string, { get?: { parameters?: { name: string; schema: Record<string, unknown> }[] } }>;
    };
    const params = doc.paths['/api/runs/leaderboard']?.get?.parameters ?? [];
    const limit = params.find((p) => p.name === 'limit');
    expect(limit?.schema).toMatchObject({ minimum: 1, maximum: 100, default: 20 });
  });
});
