/** Dashboard sessions in API tests: sign in with a key, send requests with the cookie. */
import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import type { App } from '../../src/api/app-types.js';
import type { Reply } from './test-app.js';

export interface Send {
  method?: 'GET' | 'HEAD' | 'POST' | 'DELETE';
  url: string;
  /** The session token to send as the `stepwise_session` cookie. */
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Sends a request in-process; the answer's JSON body (or `{raw}`) and headers. */
export async function send(app: App, s: Send): Promise<Reply & { text: string }> {
  const res = await app.inject({
    method: s.method ?? 'GET',
    url: s.url,
    headers: {
      ...(s.token === undefined ? {} : { cookie: `stepwise_session=${s.token}` }),
      ...(s.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...s.headers,
    },
    payload: s.body === undefined ? undefined : JSON.stringify(s.body),
  });
  let body: Reply['body'];
  try {
    body = res.json();
  } catch {
    body = { raw: res.body };
  }
  return { status: res.statusCode, body, headers: res.headers, text: res.body };
}

/** The one Set-Cookie header of an answer ('' when there is none). */
export function setCookieOf(reply: Reply): string {
  const value = reply.headers['set-cookie'];
  if (value === undefined) return '';
  expect(typeof value, 'one Set-Cookie header').toBe('string');
  return String(value);
}

/** Signs in with a key (expecting 200); returns the session token from the cookie. */
export async function signIn(app: App, apiKey: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await send(app, { method: 'POST', url: '/api/session', body: { apiKey }, headers });
  expect(res.status, res.text).toBe(200);
  const token = /^stepwise_session=([^;]+);/.exec(setCookieOf(res))?.[1];
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return token!;
}

/** A password sign-in from `remoteAddress`: its status, JSON body and the raw answer. */
export const passwordSignIn = (app: App, email: string, password: string, remoteAddress = '10.0.0.1') =>
  app
    .inject({
      method: 'POST',
      url: '/api/session',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email, password }),
      remoteAddress,
    })
    .then((res) => ({ status: res.statusCode, body: res.json<Record<string, unknown>>(), res }));

/** The hash a session token is stored under. */
export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');
