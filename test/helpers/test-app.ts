import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { App } from '../../src/api/app-types.js';
import { LocalBlobStore } from '../../src/blob/local-blob-store.js';
import { UrlSigner } from '../../src/blob/url-signer.js';
import { loadConfig } from '../../src/config.js';
import { createApiKey } from '../../src/services/api-keys.js';
import { depsOf, type Deps } from '../../src/services/context.js';
import { openStores, type Stores } from '../../src/store/open-stores.js';
import { tempDir } from './temp-dir.js';
import { freshPostgresUrl } from './test-database.js';

export interface TestApp {
  app: App;
  deps: Deps;
  stores: Stores;
  dataDir: string;
  /** The PostgreSQL database's URL on that engine (for the CLI); undefined on the embedded store. */
  databaseUrl?: string;
  /** A key of organization `org` (`acme` from makeTestApp), of its owner. */
  key: string;
  /** The slug of `key`'s organization. */
  org: string;
  /** A key of another organization's owner, `otherOrg` (`rival` from makeTestApp). */
  otherKey: string;
  /** The slug of `otherKey`'s organization. */
  otherOrg: string;
  close(): Promise<void>;
}

/**
 * The scrypt cost (log2 N) of the tests' password hashes (STEPWISE_PASSWORD_COST): 2^10, not
 * the server's 2^15, so that a test of hundreds of sign-ins spends no minute of CPU on them.
 */
export const TEST_PASSWORD_COST = 10;

/**
 * The app over a fresh store, with keys of two organizations: the embedded store in a temp
 * dir, or a fresh PostgreSQL database when STEPWISE_TEST_DATABASE=postgres (the Vitest
 * project `postgres` sets it). `env` holds STEPWISE_* settings (none by default but the
 * tests' password cost; the dashboard directory is a missing one unless `STEPWISE_UI_DIR`
 * is given).
 */
export async function makeTestApp(env: NodeJS.ProcessEnv = {}): Promise<TestApp> {
  const dataDir = tempDir();
  // No dashboard unless a test gives one: answers must not depend on whether ui/dist was built.
  const config = loadConfig(['--data', dataDir, '--port', '3999'], {
    STEPWISE_UI_DIR: path.join(dataDir, 'no-dashboard'),
    STEPWISE_PASSWORD_COST: String(TEST_PASSWORD_COST),
    ...env,
  });
  const database = process.env.STEPWISE_TEST_DATABASE === 'postgres' ? await freshPostgresUrl() : undefined;
  const stores = await openStores({ dataDir, databaseUrl: database?.url, queryTimeoutMs: config.queryTimeoutMs });
  const signer = new UrlSigner('test-secret');
  const blobs = new LocalBlobStore(path.join(dataDir, 'blobs'), config.publicUrl, signer);
  const deps: Deps = depsOf(config, stores, blobs, signer);
  const app = await buildApp(deps);
  return {
    app,
    deps,
    stores,
    dataDir,
    databaseUrl: database?.url,
    key: await orgKey(stores, 'acme', 'ann'),
    org: 'acme',
    otherKey: await orgKey(stores, 'rival', 'bob'),
    otherOrg: 'rival',
    close: async () => {
      await app.close();
      await stores.close();
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A new API key of organization `orgSlug` (created when new), whose user is its owner. */
async function orgKey(stores: Stores, orgSlug: string, userName: string): Promise<string> {
  return (await createApiKey(stores.metadata, { orgSlug, userName, name: 't', expiresAt: null, role: 'owner' })).key;
}

/**
 * One app per test file (built before its first test, closed after its last), with each test
 * isolated by keys of two organizations of its own (`acme-<n>`, `rival-<n>`): building an app
 * and opening its stores costs more than most tests. Call at the top of a file or `describe`;
 * the returned object's keys change before each test. Tests that need an empty store (global
 * sweeps, fixed organization slugs) use makeTestApp per test instead.
 */
export function useTestApp(env: NodeJS.ProcessEnv = {}): TestApp {
  const t = {} as TestApp;
  let tests = 0;
  beforeAll(async () => {
    Object.assign(t, await makeTestApp(env));
  });
  beforeEach(async () => {
    tests++;
    t.org = `acme-${tests}`;
    t.key = await orgKey(t.stores, t.org, 'ann');
    t.otherOrg = `rival-${tests}`;
    t.otherKey = await orgKey(t.stores, t.otherOrg, 'bob');
  });
  afterAll(async () => {
    await t.close?.();
  });
  return t;
}

export interface Reply {
  status: number;
  body: Record<string, unknown> & { error?: unknown; code?: unknown };
  headers: Record<string, unknown>;
}

/** Calls the app in-process with a JSON body (or none) and a bearer key. */
export async function call(
  app: App,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  key: string | null,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const res = await app.inject({
    method,
    url,
    headers: {
      ...(key === null ? {} : { authorization: `Bearer ${key}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    payload: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  let parsed: Reply['body'] = {};
  try {
    parsed = res.json();
  } catch {
    parsed = { raw: res.body };
  }
  return { status: res.statusCode, body: parsed, headers: res.headers };
}
