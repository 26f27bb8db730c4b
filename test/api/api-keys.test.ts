/**
 * The API keys of the dashboard: GET /api/keys lists the user's keys without the keys
 * themselves, POST /api/keys creates one for the requesting user and answers it once,
 * POST /api/keys/{keyId}/revoke revokes one of them (404 for another organization's),
 * refused within a second (key-authority.test.ts: other users' keys and the admin). Bearer keys and the session cookie both work.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApiKey, hashApiKey } from '../../src/services/api-keys.js';
import { sleep } from '../helpers/run-api.js';
import { send, signIn } from '../helpers/session-api.js';
import { makeTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(() => t.close());

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

interface KeyView {
  id: number;
  name: string;
  prefix: string;
  userName: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  status: 'ACTIVE' | 'REVOKED' | 'EXPIRED';
  current: boolean;
}

/** Creates a key through the API with a Bearer key (expecting 200). */
async function create(key: string, body: Record<string, unknown>): Promise<KeyView & { key: string }> {
  const res = await send(t.app, { method: 'POST', url: '/api/keys', body, headers: bearer(key) });
  expect(res.status, res.text).toBe(200);
  return res.body as unknown as KeyView & { key: string };
}

async function list(headers: Record<string, string>, token?: string): Promise<KeyView[]> {
  const res = await send(t.app, { url: '/api/keys', headers, token });
  expect(res.status, res.text).toBe(200);
  return (res.body as unknown as { keys: KeyView[] }).keys;
}

const revoke = (id: number | string, headers: Record<string, string>, token?: string) =>
  send(t.app, { method: 'POST', url: `/api/keys/${id}/revoke`, headers, token });

const validate = (key: string) => send(t.app, { url: '/api/runs/auth/validate', headers: bearer(key) });

/**
 * Polls until the key is refused, failing if a request sent `limitMs` or more after `since`
 * is still accepted. Times are taken when a request is sent, not when it is answered: on a
 * loaded machine the answer to a request sent in time can come late, and the poll's next
 * request later still, without the key having been accepted any longer.
 */
async function refusedWithin(key: string, since: number, limitMs: number): Promise<void> {
  for (;;) {
    const sent = performance.now();
    const res = await validate(key);
    if (res.status === 401) {
      expect(res.body).toEqual({ error: 'API key has been revoked', code: 'UNAUTHORIZED' });
      return;
    }
    expect(sent - since, 'still accepted').toBeLessThan(limitMs);
    await sleep(50);
  }
}

describe('POST /api/keys', () => {
  it('creates a key for the requesting user that works at once, answered in full only here', async () => {
    const before = Date.now();
    const made = await create(t.key, { name: 'laptop' });
    expect(made).toEqual({
      id: expect.any(Number),
      name: 'laptop',
      prefix: made.key.slice(0, 11),
      userName: 'ann',
      role: 'owner',
      createdAt: expect.any(String),
      lastUsedAt: null,
      expiresAt: null,
      revokedAt: null,
      status: 'ACTIVE',
      current: false,
      key: expect.stringMatching(/^sw_[A-Za-z0-9_-]{43}$/),
    });
    expect(Date.parse(made.createdAt)).toBeGreaterThanOrEqual(before - 1);
    const res = await validate(made.key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ organization: { slug: 'acme' } });
    const listed = await send(t.app, { url: '/api/keys', headers: bearer(t.key) });
    expect(listed.text).not.toContain(made.key);
    expect(listed.text).not.toContain(made.key.slice(11));
    expect(listed.text).not.toContain(hashApiKey(made.key));
  });

  it('keeps an expiry in the future, a date alone meaning its midnight UTC', async () => {
    const at = new Date(Date.now() + 86_400_000).toISOString();
    expect((await create(t.key, { name: 'ci', expiresAt: at })).expiresAt).toBe(at);
    expect((await create(t.key, { name: 'nightly', expiresAt: '2999-01-31' })).expiresAt).toBe(
      '2999-01-31T00:00:00.000Z',
    );
    expect((await create(t.key, { name: 'offset', expiresAt: '2999-01-31T12:00+02:00' })).expiresAt).toBe(
      '2999-01-31T10:00:00.000Z',
    );
    expect((await create(t.key, { name: 'none', expiresAt: null })).expiresAt).toBeNull();
  });

  it('takes a name of 100 characters (emoji count as one) and trims surrounding spaces', async () => {
    expect((await create(t.key, { name: '🔑'.repeat(100) })).name).toBe('🔑'.repeat(100));
    expect((await create(t.key, { name: '  padded name  ' })).name).toBe('padded name');
  });

  const BAD: { name: string; body: unknown; code: string }[] = [
    { name: 'no name', body: {}, code: 'VALIDATION_FAILED' },
    { name: 'an empty name', body: { name: '' }, code: 'VALIDATION_FAILED' },
    { name: 'a blank name', body: { name: '   ' }, code: 'BAD_REQUEST' },
    { name: 'a name of 101 characters', body: { name: 'n'.repeat(101) }, code: 'VALIDATION_FAILED' },
    { name: 'a name with a line break', body: { name: 'a\nb' }, code: 'BAD_REQUEST' },
    { name: 'a name with a control character', body: { name: 'a\u0007b' }, code: 'BAD_REQUEST' },
    { name: 'a numeric name', body: { name: 7 }, code: 'VALIDATION_FAILED' },
    { name: 'an expiry in the past', body: { name: 'k', expiresAt: '2020-01-01T00:00:00Z' }, code: 'BAD_REQUEST' },
    { name: 'an expiry of now', body: { name: 'k', expiresAt: 'NOW' }, code: 'BAD_REQUEST' },
    { name: 'an expiry in words', body: { name: 'k', expiresAt: 'March 7, 2999' }, code: 'BAD_REQUEST' },
    { name: 'an expiry without a zone', body: { name: 'k', expiresAt: '2999-01-01T00:00:00' }, code: 'BAD_REQUEST' },
    { name: 'an impossible date', body: { name: 'k', expiresAt: '2999-02-30T00:00:00Z' }, code: 'BAD_REQUEST' },
    { name: 'an expiry as a number', body: { name: 'k', expiresAt: 32503680000000 }, code: 'VALIDATION_FAILED' },
  ];
  it.each(BAD)('refuses $name with 400 and creates nothing', async ({ body, code }) => {
    const count = (await list(bearer(t.key))).length;
    const res = await send(t.app, { method: 'POST', url: '/api/keys', body, headers: bearer(t.key) });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toEqual({ error: expect.any(String), code });
    expect(await list(bearer(t.key))).toHaveLength(count);
  });
});

describe('GET /api/keys', () => {
  it('lists the user’s keys newest first, marks the request’s own key, never another organization’s', async () => {
    const rival = await create(t.otherKey, { name: 'rival-secret-name' });
    const mine = await create(t.key, { name: 'listed' });
    const keys = await list(bearer(t.key));
    expect(keys[0]).toMatchObject({ id: mine.id, name: 'listed', current: false });
    expect(keys.map((k) => k.id)).toEqual([...keys.map((k) => k.id)].sort((a, b) => b - a));
    expect(keys.filter((k) => k.current)).toHaveLength(1);
    expect(keys.find((k) => k.current)).toMatchObject({ name: 't', userName: 'ann' });
    expect(keys.map((k) => k.id)).not.toContain(rival.id);
    expect(JSON.stringify(keys)).not.toContain('rival-secret-name');
    const theirs = await list(bearer(t.otherKey));
    expect(theirs.map((k) => k.id)).toContain(rival.id);
    expect(theirs.map((k) => k.id)).not.toContain(mine.id);
    expect(await list(bearer(mine.key))).toContainEqual(expect.objectContaining({ id: mine.id, current: true }));
  });

  it('shows expired keys as EXPIRED and records a key’s last use', async () => {
    const expired = await createApiKey(t.stores.metadata, {
      orgSlug: 'acme',
      userName: 'ann',
      name: 'old',
      expiresAt: Date.now() - 1000,
    });
    const made = await create(t.key, { name: 'used' });
    expect((await validate(made.key)).status).toBe(200);
    // A key's use is recorded after its request is answered (not awaited), so wait for it.
    const keys = await vi.waitFor(
      async () => {
        const listed = await list(bearer(t.key));
        expect(listed.find((k) => k.id === made.id)?.lastUsedAt).not.toBeNull();
        return listed;
      },
      { timeout: 5_000, interval: 25 },
    );
    expect(keys.find((k) => k.id === expired.id)).toMatchObject({ status: 'EXPIRED', userName: 'ann' });
    expect(Date.parse(keys.find((k) => k.id === made.id)!.lastUsedAt!)).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe('POST /api/keys/{keyId}/revoke', () => {
  it('revokes the key: refused within a second, answered with the record, idempotent', async () => {
    const made = await create(t.key, { name: 'to-revoke' });
    expect((await validate(made.key)).status).toBe(200); // cached as valid
    const started = performance.now();
    const res = await revoke(made.id, bearer(t.key));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: made.id, name: 'to-revoke', status: 'REVOKED', current: false });
    const revokedAt = res.body.revokedAt as string;
    expect(Date.parse(revokedAt)).toBeGreaterThan(Date.now() - 5000);
    await refusedWithin(made.key, started, 1500);
    const again = await revoke(made.id, bearer(t.key));
    expect(again.status).toBe(200);
    expect(again.body.revokedAt).toBe(revokedAt);
    expect((await list(bearer(t.key))).find((k) => k.id === made.id)).toMatchObject({ status: 'REVOKED', revokedAt });
  });

  it('is a 404 for another organization’s key, which keeps working, and for an unknown id', async () => {
    const rival = await create(t.otherKey, { name: 'rival' });
    for (const id of [rival.id, 987_654]) {
      const res = await revoke(id, bearer(t.key));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: `API key ${id} not found`, code: 'NOT_FOUND' });
    }
    await sleep(1100);
    expect((await validate(rival.key)).status).toBe(200);
    expect((await list(bearer(t.otherKey))).find((k) => k.id === rival.id)?.status).toBe('ACTIVE');
  });

  it.each(['abc', '0', '-1', '1.5', '9'.repeat(20)])('refuses the key id %s with 400', async (id) => {
    const res = await revoke(id, bearer(t.key));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: expect.any(String), error: expect.any(String) });
  });
});

describe('with the dashboard’s session cookie', () => {
  it('lists, creates and revokes like a Bearer key', async () => {
    const token = await signIn(t.app, t.key);
    const created = await send(t.app, { method: 'POST', url: '/api/keys', token, body: { name: 'from-page' } });
    expect(created.status, created.text).toBe(200);
    const keys = await list({}, token);
    expect(keys.find((k) => k.current)).toMatchObject({ name: 't' });
    expect(keys[0]).toMatchObject({ id: created.body.id, name: 'from-page' });
    const started = performance.now();
    expect((await revoke(created.body.id as number, {}, token)).status).toBe(200);
    await refusedWithin(created.body.key as string, started, 1500);
  });

  it('may revoke the key it signed in with, which then ends the session within a second', async () => {
    const own = await create(t.key, { name: 'session-key' });
    const token = await signIn(t.app, own.key);
    const keys = await list({}, token);
    expect(keys.find((k) => k.current)?.id).toBe(own.id);
    const res = await revoke(own.id, {}, token);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'REVOKED', current: true });
    await sleep(1100);
    const after = await send(t.app, { url: '/api/keys', token });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ error: 'API key has been revoked', code: 'UNAUTHORIZED' });
  });

  it('is refused from another site', async () => {
    const token = await signIn(t.app, t.key);
    const res = await send(t.app, {
      method: 'POST',
      url: '/api/keys',
      token,
      body: { name: 'csrf' },
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'CROSS_ORIGIN' });
  });
});
