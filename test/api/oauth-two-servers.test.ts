/**
 * Two servers on one database act as one authorization server (docs/api.md §18): a client
 * registered and authorized on one gets its tokens from, and uses them on, the other
 * (PostgreSQL: two store connections, as two processes have; SQLite: one process owns the
 * file, so both apps share its stores).
 */
import { exchangeAuthorization, refreshAuthorization } from '@modelcontextprotocol/sdk/client/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { App } from '../../src/api/app-types.js';
import { openStores, type Stores } from '../../src/store/open-stores.js';
import { authorize, listeningApp, REDIRECT_URI, registerTestClient } from '../helpers/oauth-flow.js';
import { signIn } from '../helpers/session-api.js';
import { freePort } from '../helpers/spawned-server.js';
import type { TestApp } from '../helpers/test-app.js';

let t: TestApp & { baseUrl: string };
let second: App;
let secondUrl: string;
let opened: Stores | undefined;
beforeAll(async () => {
  t = await listeningApp();
  let stores: Pick<Stores, 'metadata' | 'series' | 'events' | 'oauth'> = t.stores;
  if (t.databaseUrl !== undefined) {
    opened = await openStores({ dataDir: t.dataDir, databaseUrl: t.databaseUrl });
    stores = opened;
  }
  second = await buildApp({ ...t.deps, ...stores });
  const port = await freePort();
  await second.listen({ port, host: '127.0.0.1' });
  secondUrl = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await second.close();
  await opened?.close();
  await t.close();
});

const validate = async (baseUrl: string, token: string) =>
  (await fetch(`${baseUrl}/api/runs/auth/validate`, { headers: { authorization: `Bearer ${token}` } })).status;

describe('two servers on one database', () => {
  it('share clients, codes, grants and tokens, and a revocation on one ends the token on the other', async () => {
    const session = await signIn(t.app, t.key);
    const { metadata, client } = await registerTestClient(t.baseUrl);
    const a = await authorize(t.baseUrl, { metadata, client, sessionToken: session });
    // The code is exchanged at the second server's token endpoint.
    const onSecond = { ...metadata, token_endpoint: `${secondUrl}/oauth/token` };
    const tokens = await exchangeAuthorization(`${t.baseUrl}/oauth`, {
      metadata: onSecond,
      clientInformation: client,
      authorizationCode: a.code,
      codeVerifier: a.codeVerifier,
      redirectUri: REDIRECT_URI,
    });
    expect(await validate(secondUrl, tokens.access_token)).toBe(200);
    expect(await validate(t.baseUrl, tokens.access_token)).toBe(200);
    const refreshed = await refreshAuthorization(`${t.baseUrl}/oauth`, {
      metadata: onSecond,
      clientInformation: client,
      refreshToken: tokens.refresh_token!,
    });
    expect(await validate(t.baseUrl, refreshed.access_token)).toBe(200);
    // Both servers signed with the one stored key: their JWKS agree.
    const jwks = async (base: string) => (await fetch(`${base}/oauth/jwks`)).json();
    expect(await jwks(secondUrl)).toEqual(await jwks(t.baseUrl));
    const revoked = await fetch(`${t.baseUrl}/api/oauth/apps/revoke`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: client.client_id }),
    });
    expect(revoked.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await validate(secondUrl, refreshed.access_token)).toBe(401);
  });
});
