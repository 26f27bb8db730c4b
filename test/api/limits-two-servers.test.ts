/**
 * The sign-in and client-registration limits are counted in the database (attempt_counts,
 * migration 19), so servers on one database share them and a restart keeps them: failures
 * split over two servers lock an account on both, registrations split over two use up one
 * address's allowance, and a new app on the same database still refuses. PostgreSQL: each
 * app has store connections of its own, as separate processes have; SQLite: one process owns
 * the file, so the apps share its stores (the counts are in them, not in an app).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { App } from '../../src/api/app-types.js';
import { attemptKey } from '../../src/auth/attempt-key.js';
import { REGISTRATION_LIMITS } from '../../src/auth/oauth/registration-limiter.js';
import { hashPassword } from '../../src/auth/passwords.js';
import { SIGN_IN_LIMITS } from '../../src/auth/sign-in-limiter.js';
import { openStores, type Stores } from '../../src/store/open-stores.js';
import { REDIRECT_URI } from '../helpers/oauth-flow.js';
import { passwordSignIn } from '../helpers/session-api.js';
import { makeTestApp, TEST_PASSWORD_COST, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
const opened: Stores[] = [];
const apps: App[] = [];

/** Another server on t's database: its own app and, on PostgreSQL, its own store connections. */
async function anotherServer(): Promise<App> {
  let stores: Pick<Stores, 'metadata' | 'series' | 'events' | 'oauth'> = t.stores;
  if (t.databaseUrl !== undefined) {
    const own = await openStores({ dataDir: t.dataDir, databaseUrl: t.databaseUrl });
    opened.push(own);
    stores = own;
  }
  const app = await buildApp({ ...t.deps, ...stores });
  apps.push(app);
  return app;
}

let b: App;
beforeAll(async () => {
  t = await makeTestApp();
  b = await anotherServer();
});
afterAll(async () => {
  for (const app of apps) await app.close();
  for (const stores of opened) await stores.close();
  await t.close();
});

const signIn = passwordSignIn;

const register = (app: App, remoteAddress: string) =>
  app
    .inject({
      method: 'POST',
      url: '/oauth/reg',
      remoteAddress,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        client_name: 'agent',
        redirect_uris: [REDIRECT_URI],
        token_endpoint_auth_method: 'none',
      }),
    })
    .then((res) => ({ status: res.statusCode, body: res.json<Record<string, unknown>>() }));

describe('limits shared by two servers on one database', () => {
  it('lock an account on both after failures split between them, and after a restart, keyed by sha256', async () => {
    const email = 'shared@example.test';
    const password = 'the right password';
    const orgId = await t.stores.metadata.ensureOrganization(t.org, Date.now());
    const passwordHash = await hashPassword(password, TEST_PASSWORD_COST);
    await t.stores.metadata.createAccount({ orgId, email, displayName: 'S', passwordHash, role: 'member', at: 1 });
    for (let i = 1; i < SIGN_IN_LIMITS.perAccount; i++) {
      expect((await signIn(t.app, email, `wrong ${i}`, '10.1.0.1')).status).toBe(401);
    }
    // The 10th failure comes to server B, from another address.
    expect((await signIn(b, email, 'wrong on b', '10.1.0.2')).status).toBe(401);
    for (const app of [t.app, b]) {
      const res = await signIn(app, email, password, '10.1.0.3');
      expect(res.status).toBe(429);
      expect(res.body).toEqual({
        error: expect.stringMatching(/^too many failed sign-ins; try again in \d+ s$/),
        code: 'TOO_MANY_REQUESTS',
      });
    }
    const restarted = await anotherServer();
    expect((await signIn(restarted, email, password, '10.1.0.4')).status).toBe(429);
    // Kept as the sha256 of the account, never the email itself.
    const now = Date.now();
    expect(await t.stores.metadata.findAttempts([{ kind: 'sign-in-account', key: email }], now)).toEqual([]);
    const [row] = await t.stores.metadata.findAttempts([attemptKey('sign-in-account', email)], now);
    expect(row).toMatchObject({ key: expect.stringMatching(/^[0-9a-f]{64}$/), count: SIGN_IN_LIMITS.perAccount });
  });

  it('count registrations of an address on both servers, and after a restart', async () => {
    const address = '203.0.113.50';
    for (let i = 1; i < REGISTRATION_LIMITS.perAddress; i++) {
      expect((await register(t.app, address)).status).toBe(201);
    }
    expect((await register(b, address)).status).toBe(201);
    for (const app of [t.app, b]) {
      const refused = await register(app, address);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({
        error: 'too_many_requests',
        error_description: expect.stringMatching(
          /^too many client registrations from this address; try again in \d+ s$/,
        ),
      });
    }
    const restarted = await anotherServer();
    expect((await register(restarted, address)).status).toBe(429);
    expect((await register(restarted, '203.0.113.51')).status).toBe(201);
  });
});
