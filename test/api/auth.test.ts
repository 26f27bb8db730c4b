import { describe, expect, it } from 'vitest';
import { encodeRunId } from '../../src/domain/sqid.js';
import { createApiKey } from '../../src/services/api-keys.js';
import { call, useTestApp } from '../helpers/test-app.js';
import { createRun, expectError, itScenarios, type Scenario, sleep } from '../helpers/run-api.js';

const t = useTestApp();

const unauthorizedBody = (error: string) => ({ error, code: 'UNAUTHORIZED' });

/** Every run-level endpoint with a body that would be valid with a key. */
const ENDPOINTS: { method: 'GET' | 'POST'; url: string; body?: unknown }[] = [
  { method: 'GET', url: '/api/runs/auth/validate' },
  { method: 'POST', url: '/api/slug', body: {} },
  { method: 'POST', url: '/api/runs/create', body: { runName: 'r', projectName: 'p' } },
  { method: 'POST', url: '/api/runs/resume', body: { runId: 1 } },
  { method: 'GET', url: '/api/runs/details/1' },
  { method: 'GET', url: '/api/runs/details/by-display-id/P-1' },
  { method: 'POST', url: '/api/runs/status/update', body: { runId: 1, status: 'COMPLETED' } },
  { method: 'GET', url: '/api/runs/status/history?runId=1' },
  { method: 'POST', url: '/api/runs/notes/update', body: { runId: 1, notes: 'n' } },
  { method: 'POST', url: '/api/runs/config/update', body: { runId: 1, config: '{}' } },
  { method: 'POST', url: '/api/runs/tags/update', body: { runId: 1, tags: [] } },
  { method: 'POST', url: '/api/runs/logName/add', body: { runId: 1, logName: ['a'], logType: 'METRIC' } },
  { method: 'POST', url: '/api/runs/modelGraph/create', body: { runId: 1, graph: { format: 'torch', nodes: {} } } },
  { method: 'GET', url: '/api/runs/modelGraph?runId=1' },
  { method: 'GET', url: '/api/runs/projects' },
  { method: 'GET', url: `/api/runs/${encodeRunId(1)}` },
];

describe('401 reasons', () => {
  for (const e of ENDPOINTS) {
    it(`${e.method} ${e.url} without an Authorization header is 401 "Missing API key"`, async () => {
      const res = await call(t.app, e.method, e.url, null, e.body);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(unauthorizedBody('Missing API key'));
    });

    it(`${e.method} ${e.url} with an unknown key is 401 "Invalid API key"`, async () => {
      const res = await call(t.app, e.method, e.url, 'sw_definitely-not-a-key', e.body);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(unauthorizedBody('Invalid API key'));
    });
  }

  const headers = [
    { header: '', error: 'Missing API key', why: 'an empty header is a missing key' },
    { header: '   ', error: 'Missing API key', why: 'a blank header is a missing key' },
    { header: 'Bearer', error: 'Invalid API key', why: 'the scheme without a key is malformed' },
    { header: 'Bearer ', error: 'Invalid API key', why: 'the scheme with a blank key is malformed' },
    { header: 'Basic dXNlcjpwYXNz', error: 'Invalid API key', why: 'another scheme is malformed' },
    { header: 'Token abc', error: 'Invalid API key', why: 'another scheme is malformed' },
    { header: 'Bearer a b', error: 'Invalid API key', why: 'two words after the scheme are malformed' },
    { header: 'Bearer sw_unknown', error: 'Invalid API key', why: 'an unknown key is invalid' },
  ];
  for (const { header, error, why } of headers) {
    it(`the header ${JSON.stringify(header)} is 401 "${error}" because ${why}`, async () => {
      const res = await call(t.app, 'GET', '/api/runs/auth/validate', null, undefined, { authorization: header });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(unauthorizedBody(error));
    });
  }

  it('a key without the scheme word is 401 "Invalid API key"', async () => {
    const res = await call(t.app, 'GET', '/api/runs/auth/validate', null, undefined, { authorization: t.key });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(unauthorizedBody('Invalid API key'));
  });

  /** A new key of the test's organization, expiring at `expiresAt` (ms) or never. */
  const newKey = (expiresAt: number | null) =>
    createApiKey(t.stores.metadata, { orgSlug: t.org, userName: 'ann', name: 'k', expiresAt });

  const keys: { name: string; expiresIn: number | null; revoked?: boolean; status: number; error?: string }[] = [
    {
      name: 'an expired key is 401 "API key has expired"',
      expiresIn: -1000,
      status: 401,
      error: 'API key has expired',
    },
    { name: 'a key whose expiry is in the future is accepted', expiresIn: 86_400_000, status: 200 },
    {
      name: 'a revoked key is 401 "API key has been revoked"',
      expiresIn: null,
      revoked: true,
      status: 401,
      error: 'API key has been revoked',
    },
  ];
  for (const k of keys) {
    it(k.name, async () => {
      const { id, key } = await newKey(k.expiresIn === null ? null : Date.now() + k.expiresIn);
      if (k.revoked) expect(await t.deps.metadata.revokeApiKey(id, Date.now())).toBe(true);
      const res = await call(t.app, 'GET', '/api/runs/auth/validate', key);
      expect(res.status).toBe(k.status);
      if (k.error !== undefined) expect(res.body).toEqual(unauthorizedBody(k.error));
    });
  }

  it('a key revoked after use is refused within about a second', async () => {
    const { id, key } = await newKey(null);
    expect((await call(t.app, 'GET', '/api/runs/auth/validate', key)).status).toBe(200);
    await t.deps.metadata.revokeApiKey(id, Date.now());
    await sleep(1100);
    const res = await call(t.app, 'GET', '/api/runs/auth/validate', key);
    expect(res.body).toEqual(unauthorizedBody('API key has been revoked'));
  });

  it('a revoked key that has also expired is refused with a 401 of one of the two reasons', async () => {
    const { id, key } = await newKey(1);
    await t.deps.metadata.revokeApiKey(id, Date.now());
    const res = await call(t.app, 'GET', '/api/runs/auth/validate', key);
    expectError(res, 401, 'UNAUTHORIZED');
    expect(['API key has been revoked', 'API key has expired']).toContain(res.body.error);
  });
});

describe('the Bearer scheme word', () => {
  it.each(['Bearer', 'bearer', 'BEARER', 'bEaReR'])('is accepted spelled %s', async (scheme) => {
    const res = await call(t.app, 'GET', '/api/runs/auth/validate', null, undefined, {
      authorization: `${scheme} ${t.key}`,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ valid: true, organization: { slug: t.org } });
  });
});

describe('GET /api/runs/auth/validate', () => {
  it('answers valid with the organization and user of the key, ids as strings', async () => {
    const res = await call(t.app, 'GET', '/api/runs/auth/validate', t.key);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['organization', 'user', 'valid']);
    expect(res.body).toEqual({
      valid: true,
      organization: { id: expect.any(String), slug: t.org },
      user: { id: expect.any(String) },
    });
  });

  it('answers a different organization and user for a key of another organization', async () => {
    const mine = await call(t.app, 'GET', '/api/runs/auth/validate', t.key);
    const theirs = await call(t.app, 'GET', '/api/runs/auth/validate', t.otherKey);
    expect(theirs.body).toMatchObject({ valid: true, organization: { slug: t.otherOrg } });
    const orgOf = (b: Record<string, unknown>) => (b.organization as { id: string }).id;
    const userOf = (b: Record<string, unknown>) => (b.user as { id: string }).id;
    expect(orgOf(theirs.body)).not.toBe(orgOf(mine.body));
    expect(userOf(theirs.body)).not.toBe(userOf(mine.body));
  });
});

describe('POST /api/slug', () => {
  const scenarios: Scenario[] = [
    { name: 'answers the organization slug for a POST without a body', method: 'POST', url: '/api/slug', status: 200 },
    {
      name: 'answers the organization slug for a POST with an empty object',
      method: 'POST',
      url: '/api/slug',
      body: {},
      status: 200,
    },
  ];
  itScenarios(t, scenarios, { after: (res) => expect(res.body).toEqual({ organization: { slug: t.org } }) });

  it('answers the slug of the other organization for its key', async () => {
    const res = await call(t.app, 'POST', '/api/slug', t.otherKey);
    expect(res.body).toEqual({ organization: { slug: t.otherOrg } });
  });
});

describe('public routes', () => {
  it('GET /api/health needs no key', async () => {
    const res = await call(t.app, 'GET', '/api/health', null);
    expect(res.status).toBe(200);
  });

  it('a key works on a run endpoint after the key was used elsewhere', async () => {
    const run = await createRun(t.app, t.key, { runName: 'r', projectName: 'p' });
    const res = await call(t.app, 'GET', `/api/runs/details/${run.runId}`, t.key);
    expect(res.status).toBe(200);
  });
});
