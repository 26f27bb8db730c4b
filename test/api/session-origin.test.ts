/**
 * The session cookie is accepted from this server's own pages only (Sec-Fetch-Site and
 * Origin), while Bearer keys are unaffected by either header; cookies are Secure on https.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, setCookieOf, signIn } from '../helpers/session-api.js';
import { makeTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await makeTestApp();
  token = await signIn(t.app, t.key);
});
afterAll(() => t.close());

/** The test app's public URL is http://127.0.0.1:3999; inject's Host is localhost:80. */
interface Case {
  name: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  status: number;
}
const cases: Case[] = [
  { name: 'a request without browser headers (curl)', method: 'GET', headers: {}, status: 200 },
  { name: 'a same-origin fetch', method: 'GET', headers: { 'sec-fetch-site': 'same-origin' }, status: 200 },
  { name: 'a typed URL (Sec-Fetch-Site: none) GET', method: 'GET', headers: { 'sec-fetch-site': 'none' }, status: 200 },
  {
    name: 'a same-origin POST from the public URL',
    method: 'POST',
    headers: { origin: 'http://127.0.0.1:3999' },
    status: 200,
  },
  {
    name: 'a same-origin POST from the Host it was sent to',
    method: 'POST',
    headers: { origin: 'http://localhost', 'sec-fetch-site': 'same-origin' },
    status: 200,
  },
  { name: 'a cross-site fetch', method: 'GET', headers: { 'sec-fetch-site': 'cross-site' }, status: 403 },
  {
    name: 'a same-site fetch from a sibling host',
    method: 'GET',
    headers: { 'sec-fetch-site': 'same-site' },
    status: 403,
  },
  { name: 'a POST with Sec-Fetch-Site: none', method: 'POST', headers: { 'sec-fetch-site': 'none' }, status: 403 },
  {
    name: 'a POST from https://evil.example',
    method: 'POST',
    headers: { origin: 'https://evil.example' },
    status: 403,
  },
  {
    name: 'a GET from https://evil.example claiming same-origin',
    method: 'GET',
    headers: { origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' },
    status: 403,
  },
  { name: 'a request from an opaque origin', method: 'POST', headers: { origin: 'null' }, status: 403 },
  {
    name: 'the public URL with another scheme',
    method: 'POST',
    headers: { origin: 'https://127.0.0.1:3999' },
    status: 403,
  },
];

/** A case's request, GET auth/validate or POST /api/slug, with the cookie `token` or extra `headers`. */
const sendCase = (c: Case, auth: { token?: string; headers?: Record<string, string> }) => {
  const headers = { ...c.headers, ...auth.headers };
  return c.method === 'GET'
    ? send(t.app, { url: '/api/runs/auth/validate', token: auth.token, headers })
    : send(t.app, { method: c.method, url: '/api/slug', token: auth.token, headers, body: {} });
};

describe('a cookie-authenticated request', () => {
  it.each(cases)('is $status for $name', async (c) => {
    const res = await sendCase(c, { token });
    expect(res.status, res.text).toBe(c.status);
    if (c.status === 403) expect(res.body).toEqual({ error: expect.any(String), code: 'CROSS_ORIGIN' });
  });
});

describe('a Bearer request', () => {
  it.each(cases)('ignores the headers of $name', async (c) => {
    const res = await sendCase(c, { headers: { authorization: `Bearer ${t.key}` } });
    expect(res.status, res.text).toBe(200);
  });

  it('takes precedence over the cookie: a bad key with a good cookie is 401 "Invalid API key"', async () => {
    const res = await send(t.app, {
      url: '/api/runs/auth/validate',
      token,
      headers: { authorization: 'Bearer sw_nope' },
    });
    expect(res.body).toEqual({ error: 'Invalid API key', code: 'UNAUTHORIZED' });
  });

  it('takes precedence over the cookie: a good key with a cross-site cookie is 200', async () => {
    const headers = {
      authorization: `Bearer ${t.key}`,
      'sec-fetch-site': 'cross-site',
      origin: 'https://evil.example',
    };
    expect((await send(t.app, { url: '/api/runs/auth/validate', token: 'x', headers })).status).toBe(200);
  });
});

describe('the session routes', () => {
  it('refuse a cross-site sign-in, setting no cookie', async () => {
    const res = await send(t.app, {
      method: 'POST',
      url: '/api/session',
      body: { apiKey: t.key },
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'CROSS_ORIGIN' });
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('refuse a cross-site sign-out, leaving the session alone', async () => {
    const mine = await signIn(t.app, t.key);
    const res = await send(t.app, {
      method: 'DELETE',
      url: '/api/session',
      token: mine,
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(res.status).toBe(403);
    expect((await send(t.app, { url: '/api/runs/auth/validate', token: mine })).status).toBe(200);
  });
});

describe('on an https public URL', () => {
  it('the cookie is Secure, and a page of the public URL is same-origin', async () => {
    const https = await makeTestApp({ STEPWISE_PUBLIC_URL: 'https://stepwise.example.com' });
    try {
      const headers = { origin: 'https://stepwise.example.com', 'sec-fetch-site': 'same-origin' };
      const res = await send(https.app, { method: 'POST', url: '/api/session', body: { apiKey: https.key }, headers });
      expect(res.status).toBe(200);
      expect(setCookieOf(res)).toMatch(/; HttpOnly; SameSite=Strict; Secure$/);
      const out = await send(https.app, { method: 'DELETE', url: '/api/session', headers });
      expect(setCookieOf(out)).toMatch(/; Secure$/);
    } finally {
      await https.close();
    }
  });

  it('the cookie is not Secure on an http public URL', async () => {
    const res = await send(t.app, { method: 'POST', url: '/api/session', body: { apiKey: t.key } });
    expect(setCookieOf(res)).not.toContain('Secure');
  });
});
