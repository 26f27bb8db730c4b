/**
 * Open client registration (POST /oauth/reg, docs/api.md §18) on both engines: limited per
 * client address with a 429 in the RFC 7591 error shape, and a client that no grant names is
 * swept 24 hours after it registered while one that was allowed stays.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNGRANTED_CLIENT_MS } from '../../src/auth/oauth/oauth-adapter.js';
import { REGISTRATION_LIMITS } from '../../src/auth/oauth/registration-limiter.js';
import { listeningApp, REDIRECT_URI, tokensFor } from '../helpers/oauth-flow.js';
import { signIn } from '../helpers/session-api.js';
import type { TestApp } from '../helpers/test-app.js';

let t: TestApp & { baseUrl: string };
beforeAll(async () => {
  t = await listeningApp();
});
afterAll(async () => {
  await t.close();
});

/** POST /oauth/reg of a public client from `address`. */
function register(address: string) {
  return t.app.inject({
    method: 'POST',
    url: '/oauth/reg',
    remoteAddress: address,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({
      client_name: 'agent',
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'none',
    }),
  });
}

describe('client registration', () => {
  it('answers 429 with error and error_description past the limit of an address, and other addresses go on', async () => {
    for (let i = 0; i < REGISTRATION_LIMITS.perAddress; i++) {
      const res = await register('203.0.113.7');
      expect(res.statusCode, res.body).toBe(201);
    }
    const refused = await register('203.0.113.7');
    expect(refused.statusCode).toBe(429);
    const body = refused.json<Record<string, string>>();
    expect(Object.keys(body).sort()).toEqual(['error', 'error_description']);
    expect(body.error).toBe('too_many_requests');
    expect(body.error_description).toMatch(/^too many client registrations from this address; try again in \d+ s$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3500);
    expect((await register('203.0.113.8')).statusCode).toBe(201);
  });

  it('sweeps a client that no grant names 24 hours after it registered, and keeps one that was allowed', async () => {
    const lone = (await register('203.0.113.9')).json<{ client_id: string }>().client_id;
    const session = await signIn(t.app, t.key);
    const allowed = (await tokensFor(t.baseUrl, session)).client.client_id;
    const now = Date.now();
    const dayOn = now + UNGRANTED_CLIENT_MS + 60_000;
    expect(await t.stores.oauth.findOAuthRecord('Client', lone, now)).toBeDefined();
    expect(await t.stores.oauth.sweepOAuth(now)).toBe(0);
    expect(await t.stores.oauth.sweepOAuth(dayOn)).toBeGreaterThan(0);
    expect(await t.stores.oauth.findOAuthRecord('Client', lone, now)).toBeUndefined();
    expect(await t.stores.oauth.findOAuthRecord('Client', allowed, dayOn)).toBeDefined();
  });
});
