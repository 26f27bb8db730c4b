import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OAuthServer } from '../../src/auth/oauth/oauth-server.js';
import { listeningApp, tokensFor } from '../helpers/oauth-flow.js';
import { send, signIn } from '../helpers/session-api.js';
import { call, type TestApp } from '../helpers/test-app.js';

let t: TestApp & { baseUrl: string };
beforeAll(async () => {
  t = await listeningApp();
});
afterAll(async () => {
  await t.close();
});

describe('connected apps', () => {
  it('lists the requester’s allowed clients in this organization and revokes one with all its tokens at once', async () => {
    expect((await call(t.app, 'GET', '/api/oauth/apps', t.key)).body).toEqual({ apps: [] });
    const session = await signIn(t.app, t.key);
    const { tokens, client } = await tokensFor(t.baseUrl, session, 'runs:read');
    const validate = () =>
      fetch(`${t.baseUrl}/api/runs/auth/validate`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect((await validate()).status).toBe(200);
    // A token's use is recorded after its request is answered (not awaited), so wait for it.
    const listApps = () => send(t.app, { url: '/api/oauth/apps', token: session });
    await vi.waitFor(
      async () => {
        const apps = (await listApps()).body as { apps: { lastUsedAt: string | null }[] };
        expect(apps.apps[0]?.lastUsedAt).not.toBeNull();
      },
      { timeout: 5000, interval: 50 },
    );
    const listed = await listApps();
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      apps: [
        {
          clientId: client.client_id,
          clientName: 'Test agent',
          scopes: ['runs:read'],
          authorizedAt: expect.stringMatching(/^\d{4}-/),
          lastUsedAt: expect.stringMatching(/^\d{4}-/),
        },
      ],
    });
    // Another organization's owner sees none of them and cannot revoke them.
    expect((await call(t.app, 'GET', '/api/oauth/apps', t.otherKey)).body).toEqual({ apps: [] });
    const foreign = await call(t.app, 'POST', '/api/oauth/apps/revoke', t.otherKey, { clientId: client.client_id });
    expect(foreign.status).toBe(200);
    expect((await validate()).status).toBe(200);
    const revoked = await call(t.app, 'POST', '/api/oauth/apps/revoke', t.key, { clientId: client.client_id });
    expect(revoked).toMatchObject({ status: 200, body: { success: true } });
    // This server forgets its cached answers at once; others within a second.
    expect((await validate()).status).toBe(401);
    expect((await call(t.app, 'GET', '/api/oauth/apps', t.key)).body).toEqual({ apps: [] });
  });

  it('answers a consent request it does not know with 404, and refuses a bad decision with 400', async () => {
    const missing = await call(t.app, 'GET', '/api/oauth/consent/nope', t.key);
    expect(missing).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    const bad = await call(t.app, 'POST', '/api/oauth/consent/nope', t.key, { decision: 'maybe' });
    expect(bad).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await call(t.app, 'GET', '/api/openapi.json', null)).body as { paths: Record<string, unknown> };
    for (const path of ['/api/oauth/apps', '/api/oauth/apps/revoke', '/api/oauth/consent/{uid}']) {
      expect(doc.paths[path], path).toBeDefined();
    }
  });
});

describe('the principal of an access token', () => {
  it('has the user’s role with runs:write, viewer with runs:read only, and the token’s scopes', async () => {
    const server = await OAuthServer.open(t.deps, (err) => {
      throw err;
    });
    try {
      const session = await signIn(t.app, t.key);
      const write = await tokensFor(t.baseUrl, session, 'runs:read runs:write');
      expect(await server.tokens.authenticate(write.tokens.access_token)).toMatchObject({
        orgSlug: t.org,
        role: 'owner',
        scopes: ['runs:read', 'runs:write'],
      });
      const read = await tokensFor(t.baseUrl, session, 'runs:read');
      expect(await server.tokens.authenticate(read.tokens.access_token)).toMatchObject({
        role: 'viewer',
        scopes: ['runs:read'],
      });
      // The sweep removes what has ended: a year on, the grant and its tokens are gone.
      expect(await t.stores.oauth.sweepOAuth(Date.now() + 400 * 24 * 3600_000)).toBeGreaterThan(0);
      server.tokens.forget();
      await expect(server.tokens.authenticate(read.tokens.access_token)).rejects.toThrow(/Invalid access token/);
    } finally {
      server.close();
    }
  });
});
