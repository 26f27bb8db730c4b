/**
 * Dashboard sign-in: POST /api/session turns an API key into an HttpOnly session cookie
 * stored server-side, the cookie authenticates API routes, DELETE /api/session ends it, and
 * unused sessions, revoked and expired keys end it too.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createApiKey } from '../../src/services/api-keys.js';
import { holdClock } from '../helpers/held-clock.js';
import { sleep } from '../helpers/run-api.js';
import { send, setCookieOf, signIn, tokenHash } from '../helpers/session-api.js';
import { makeTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
/** An app whose sessions end after 2 s unused. */
let short: TestApp;
/** An app that keeps at most 3 sessions per key. */
let capped: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
  short = await makeTestApp({ STEPWISE_SESSION_TTL: '2' });
  capped = await makeTestApp({ STEPWISE_MAX_SESSIONS_PER_KEY: '3' });
});
afterAll(async () => {
  await t.close();
  await short.close();
  await capped.close();
});

const keyOf = (app: TestApp, expiresAt: number | null = null) =>
  createApiKey(app.stores.metadata, { orgSlug: 'acme', userName: 'ann', name: 'k', expiresAt });

describe('POST /api/session', () => {
  it('answers like auth/validate and sets an HttpOnly, SameSite=Strict cookie for the session lifetime', async () => {
    const res = await send(t.app, { method: 'POST', url: '/api/session', body: { apiKey: t.key } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      valid: true,
      organization: { id: expect.any(String), slug: 'acme' },
      user: { id: expect.any(String) },
    });
    expect(res.body).toEqual((await send(t.app, { url: '/api/runs/auth/validate', headers: bearer(t.key) })).body);
    expect(setCookieOf(res)).toMatch(
      /^stepwise_session=[A-Za-z0-9_-]{43}; Max-Age=604800; Path=\/; HttpOnly; SameSite=Strict$/,
    );
  });

  it('stores only the SHA-256 of the token, tied to the key that signed in', async () => {
    const { id, key } = await keyOf(t);
    const token = await signIn(t.app, key);
    const row = await t.stores.metadata.findSession(tokenHash(token));
    expect(row).toMatchObject({ apiKeyId: id, tokenHash: tokenHash(token) });
    expect(row!.expiresAt - row!.createdAt).toBe(7 * 86_400_000);
  });

  const refusals: { name: string; apiKey: () => Promise<string>; error: string }[] = [
    { name: 'an empty key', apiKey: async () => '', error: 'Missing API key' },
    { name: 'an unknown key', apiKey: async () => 'sw_unknownunknownunknownunknown', error: 'Invalid API key' },
    { name: 'two words', apiKey: async () => 'sw_a sw_b', error: 'Invalid API key' },
    {
      name: 'a revoked key',
      apiKey: async () => {
        const { id, key } = await keyOf(t);
        await t.stores.metadata.revokeApiKey(id, Date.now());
        return key;
      },
      error: 'API key has been revoked',
    },
    {
      name: 'an expired key',
      apiKey: async () => (await keyOf(t, Date.now() - 1000)).key,
      error: 'API key has expired',
    },
  ];
  it.each(refusals)('refuses $name with 401 "$error" and sets no cookie', async ({ apiKey, error }) => {
    const res = await send(t.app, { method: 'POST', url: '/api/session', body: { apiKey: await apiKey() } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error, code: 'UNAUTHORIZED' });
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a body without apiKey with 400', async () => {
    const res = await send(t.app, { method: 'POST', url: '/api/session', body: { key: t.key } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe('the session cookie', () => {
  it('authenticates API reads and writes as the key’s organization', async () => {
    const token = await signIn(t.app, t.key);
    const created = await send(t.app, {
      method: 'POST',
      url: '/api/runs/create',
      token,
      body: { runName: 'from-dashboard', projectName: 'cookies' },
    });
    expect(created.status, created.text).toBe(200);
    const mine = await send(t.app, { url: `/api/runs/details/${created.body.runId}`, headers: bearer(t.key) });
    expect(mine.body).toMatchObject({ name: 'from-dashboard' });
    const theirs = await send(t.app, { url: `/api/runs/details/${created.body.runId}`, headers: bearer(t.otherKey) });
    expect(theirs.status).toBe(404);
    expect((await send(t.app, { url: '/api/runs/projects', token })).status).toBe(200);
  });

  it('that is unknown or malformed is 401 "Invalid session"', async () => {
    for (const token of ['A'.repeat(43), 'not-a-token', '../../etc']) {
      const res = await send(t.app, { url: '/api/runs/auth/validate', token });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'Invalid session', code: 'UNAUTHORIZED' });
    }
  });

  it('ends when its key is revoked, within about a second', async () => {
    const { id, key } = await keyOf(t);
    const token = await signIn(t.app, key);
    expect((await send(t.app, { url: '/api/runs/auth/validate', token })).status).toBe(200);
    await t.stores.metadata.revokeApiKey(id, Date.now());
    await sleep(1100);
    const res = await send(t.app, { url: '/api/runs/auth/validate', token });
    expect(res.body).toEqual({ error: 'API key has been revoked', code: 'UNAUTHORIZED' });
  });

  it('ends when its key expires', async () => {
    holdClock();
    const { key } = await keyOf(t, Date.now() + 1500);
    const token = await signIn(t.app, key);
    expect((await send(t.app, { url: '/api/runs/auth/validate', token })).status).toBe(200);
    vi.advanceTimersByTime(1600); // past the expiry and the one-second key cache
    const res = await send(t.app, { url: '/api/runs/auth/validate', token });
    expect(res.body).toEqual({ error: 'API key has expired', code: 'UNAUTHORIZED' });
  });
});

describe('DELETE /api/session', () => {
  it('deletes the session on the server and clears the cookie; the old cookie is then a 401', async () => {
    const token = await signIn(t.app, t.key);
    const res = await send(t.app, { method: 'DELETE', url: '/api/session', token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(setCookieOf(res)).toBe('stepwise_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict');
    expect(await t.stores.metadata.findSession(tokenHash(token))).toBeUndefined();
    const reused = await send(t.app, { url: '/api/runs/auth/validate', token });
    expect(reused.status).toBe(401);
    expect(reused.body).toEqual({ error: 'Invalid session', code: 'UNAUTHORIZED' });
  });

  it('answers 204 without a session, and again for an ended one', async () => {
    expect((await send(t.app, { method: 'DELETE', url: '/api/session' })).status).toBe(204);
    const token = await signIn(t.app, t.key);
    for (let i = 0; i < 2; i++)
      expect((await send(t.app, { method: 'DELETE', url: '/api/session', token })).status).toBe(204);
  });
});

describe('session lifetime (STEPWISE_SESSION_TTL=2)', () => {
  it('sets the cookie’s Max-Age to the lifetime', async () => {
    const res = await send(short.app, { method: 'POST', url: '/api/session', body: { apiKey: short.key } });
    expect(setCookieOf(res)).toContain('; Max-Age=2;');
  });

  it('ends a session left unused for the lifetime', async () => {
    const token = await signIn(short.app, short.key);
    await sleep(2100);
    const res = await send(short.app, { url: '/api/runs/auth/validate', token });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Session has expired', code: 'UNAUTHORIZED' });
  });

  it('extends a session on use, renewing the cookie', async () => {
    holdClock();
    const signedInAt = Date.now();
    const token = await signIn(short.app, short.key);
    vi.advanceTimersByTime(1200);
    const used = await send(short.app, { url: '/api/runs/auth/validate', token });
    expect(used.status).toBe(200);
    expect(setCookieOf(used)).toBe(`stepwise_session=${token}; Max-Age=2; Path=/; HttpOnly; SameSite=Strict`);
    // The new end is written after the answer; the next read (past the one-second cache) sees it.
    await vi.waitFor(
      async () =>
        expect((await short.stores.metadata.findSession(tokenHash(token)))?.expiresAt).toBe(signedInAt + 3200),
      { timeout: 5_000, interval: 25 },
    );
    vi.advanceTimersByTime(1200); // 2.4 s after sign-in, 1.2 s after the use
    expect((await send(short.app, { url: '/api/runs/auth/validate', token })).status).toBe(200);
  });
});

describe('several servers on one store', () => {
  it('a session opened on one server works on another, and a sign-out on one ends it on both', async () => {
    const other = await buildApp(t.deps);
    try {
      const token = await signIn(t.app, t.key);
      expect((await send(other, { url: '/api/runs/auth/validate', token })).status).toBe(200);
      expect((await send(other, { method: 'DELETE', url: '/api/session', token })).status).toBe(204);
      await sleep(1100);
      expect((await send(t.app, { url: '/api/runs/auth/validate', token })).status).toBe(401);
    } finally {
      await other.close();
    }
  });
});

describe('a stepwise_session cookie planted by another site on this host name', () => {
  // Another service on the same host name (cookies ignore ports) can set a cookie of the same
  // name with a longer path, which the browser sends first.
  const planted: { name: string; value: () => Promise<string> }[] = [
    { name: 'a malformed one', value: async () => 'planted' },
    { name: 'an unknown well-formed one', value: async () => 'A'.repeat(43) },
  ];
  it.each(planted)('does not lock the user out when it is $name sent first', async ({ value }) => {
    const token = await signIn(t.app, t.key);
    const cookie = `stepwise_session=${await value()}; stepwise_session=${token}`;
    const res = await send(t.app, { url: '/api/runs/auth/validate', headers: { cookie } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ organization: { slug: 'acme' } });
  });

  it('is not enough on its own, and a sign-out ends every session the header names', async () => {
    const alone = await send(t.app, {
      url: '/api/runs/auth/validate',
      headers: { cookie: 'stepwise_session=planted' },
    });
    expect(alone.status).toBe(401);
    const token = await signIn(t.app, t.key);
    const cookie = `stepwise_session=planted; stepwise_session=${token}`;
    expect((await send(t.app, { method: 'DELETE', url: '/api/session', headers: { cookie } })).status).toBe(204);
    expect(await t.stores.metadata.findSession(tokenHash(token))).toBeUndefined();
  });
});

describe('sessions per key (STEPWISE_MAX_SESSIONS_PER_KEY=3)', () => {
  it("a fourth sign-in ends the key's oldest session and keeps the other three", async () => {
    const { key } = await keyOf(capped);
    const tokens: string[] = [];
    for (let i = 0; i < 4; i++) {
      tokens.push(await signIn(capped.app, key));
      await sleep(5); // distinct creation times
    }
    const statuses = [];
    for (const token of tokens)
      statuses.push((await send(capped.app, { url: '/api/runs/auth/validate', token })).status);
    expect(statuses).toEqual([401, 200, 200, 200]);
    expect(await capped.stores.metadata.findSession(tokenHash(tokens[0]!))).toBeUndefined();
  });

  it("leaves other keys' sessions alone", async () => {
    const mine = await keyOf(capped);
    const theirs = await keyOf(capped);
    const kept = await signIn(capped.app, theirs.key);
    for (let i = 0; i < 5; i++) await signIn(capped.app, mine.key);
    expect((await send(capped.app, { url: '/api/runs/auth/validate', token: kept })).status).toBe(200);
  });
});
