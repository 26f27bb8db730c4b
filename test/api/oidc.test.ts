/**
 * OpenID Connect sign-in (issue 29, docs/api.md §16) against a real `oidc-provider` on
 * loopback, driven over HTTP: a verified email signs in (made a member of the default
 * organization on its first sign-in, matched on the next); a callback without the start's
 * cookie or with another state, and an email the provider has not verified, are refused
 * without a session. Without STEPWISE_OIDC_* the routes answer 404 and the sign-in page is
 * told SSO is off. The browser flow is test/e2e/oidc-sign-in.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS, signInAtProvider, startTestProvider, type TestProvider } from '../helpers/oidc-test-provider.js';
import { send } from '../helpers/session-api.js';
import { call, makeTestApp, useTestApp, type TestApp } from '../helpers/test-app.js';

/** makeTestApp's public URL (it passes --port 3999). */
const REDIRECT = 'http://127.0.0.1:3999/api/auth/oidc/callback';

let provider: TestProvider;
let t: TestApp;
beforeAll(async () => {
  provider = await startTestProvider(REDIRECT);
  t = await makeTestApp({
    STEPWISE_OIDC_ISSUER: provider.issuer,
    STEPWISE_OIDC_CLIENT_ID: provider.clientId,
    STEPWISE_OIDC_CLIENT_SECRET: provider.clientSecret,
  });
});
afterAll(async () => {
  await t?.close();
  await provider?.close();
});

const cookieOf = (headers: Record<string, unknown>, name: string): string | undefined => {
  const lines = [headers['set-cookie'] ?? []].flat().map(String);
  return lines.map((l) => new RegExp(`^${name}=([^;]*);`).exec(l)?.[1]).find((v) => v !== undefined);
};

/** Starts a sign-in; returns the provider URL and the pending cookie the browser would keep. */
async function start(): Promise<{ authUrl: string; pending: string }> {
  const res = await send(t.app, { url: '/api/auth/oidc/start' });
  expect(res.status, res.text).toBe(302);
  const authUrl = String(res.headers.location);
  const params = new URL(authUrl).searchParams;
  expect(authUrl.startsWith(provider.issuer)).toBe(true);
  expect(params.get('code_challenge_method')).toBe('S256');
  expect(params.get('state')).toBeTruthy();
  expect(params.get('nonce')).toBeTruthy();
  return { authUrl, pending: cookieOf(res.headers, 'stepwise_oidc')! };
}

/** Sends the browser's return from the provider to the callback with `pending` as its cookie. */
const callback = (url: URL, pending: string | undefined) =>
  send(t.app, {
    url: url.pathname + url.search,
    headers: pending === undefined ? {} : { cookie: `stepwise_oidc=${pending}` },
  });

describe('OIDC sign-in', () => {
  it('tells the sign-in page that SSO is on', async () => {
    const res = await call(t.app, 'GET', '/api/auth/providers', null);
    expect(res).toMatchObject({ status: 200, body: { oidc: true } });
  });

  it('signs a verified email in as a new member, then as the same user', async () => {
    const users: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { authUrl, pending } = await start();
      const res = await callback(await signInAtProvider(authUrl, 'ann', REDIRECT), pending);
      expect(res.status, res.text).toBe(303);
      expect(res.headers.location).toBe('/');
      const token = cookieOf(res.headers, 'stepwise_session')!;
      const account = await send(t.app, { url: '/api/account', token });
      expect(account.status, account.text).toBe(200);
      expect(account.text).toContain(ACCOUNTS.ann!.email);
      const session = await send(t.app, { url: '/api/runs/auth/validate', token });
      expect(session.body).toMatchObject({ organization: { slug: 'default' } });
      users.push(JSON.stringify((session.body as { user: unknown }).user));
    }
    expect(users[1]).toBe(users[0]);
    const user = await t.stores.metadata.findUserByEmail(ACCOUNTS.ann!.email);
    expect(user?.passwordHash).toBeNull();
    expect(await t.stores.metadata.findMemberRole(user!.homeOrgId, user!.id)).toBe('member');
  });

  it('refuses a callback with another state or without the start’s cookie', async () => {
    const { authUrl, pending } = await start();
    const back = await signInAtProvider(authUrl, 'ann', REDIRECT);
    const forged = new URL(back);
    forged.searchParams.set('state', 'not-the-state');
    for (const res of [await callback(forged, pending), await callback(back, undefined)]) {
      expect(res.status, res.text).toBe(400);
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST' });
      expect(cookieOf(res.headers, 'stepwise_session')).toBeUndefined();
    }
  });

  it('refuses an email the provider has not verified, as a page for a browser', async () => {
    const { authUrl, pending } = await start();
    const back = await signInAtProvider(authUrl, 'bob', REDIRECT);
    const res = await send(t.app, {
      url: back.pathname + back.search,
      headers: { cookie: `stepwise_oidc=${pending}`, accept: 'text/html' },
    });
    expect(res.status).toBe(403);
    expect(res.text).toContain(`has not verified ${ACCOUNTS.bob!.email}`);
    expect(cookieOf(res.headers, 'stepwise_session')).toBeUndefined();
    expect(await t.stores.metadata.findUserByEmail(ACCOUNTS.bob!.email)).toBeUndefined();
  });
});

describe('without STEPWISE_OIDC_*', () => {
  const off = useTestApp();
  it('answers 404 on the SSO routes and tells the sign-in page SSO is off', async () => {
    expect(await call(off.app, 'GET', '/api/auth/providers', null)).toMatchObject({ body: { oidc: false } });
    for (const url of ['/api/auth/oidc/start', '/api/auth/oidc/callback?code=x&state=y']) {
      expect(await call(off.app, 'GET', url, null)).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    }
  });
});
