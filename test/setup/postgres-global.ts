/**
 * Vitest global setup: one throwaway PostgreSQL cluster for the run, shared by every project
 * that lists this setup (or the server at
 * STEPWISE_TEST_DATABASE_URL) with a migrated template database that tests clone (see
 * test/helpers/test-database.ts). Without the server binaries the PostgreSQL tests are
 * skipped, except under CI, where that is an error.
 */
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openStores } from '../../src/store/open-stores.js';
import { postgresAvailable, startPostgresCluster } from '../helpers/postgres-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A superuser URL of the PostgreSQL server for tests; '' when there is none. */
    postgresUrl: string;
    /** The migrated database that tests clone. */
    postgresTemplate: string;
  }
}

/** Creates the template database at the server's URL and migrates it. */
async function makeTemplate(url: string): Promise<string> {
  const name = `stepwise_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const u = new URL(url);
  u.pathname = `/${name}`;
  const stores = await openStores({ databaseUrl: u.toString(), dataDir: '' });
  await stores.close();
  return name;
}

interface Server {
  url: string;
  template: string;
  stop: () => Promise<void>;
}

/** The server of this Vitest process, shared by every project that asks (one cluster per run). */
const shared = globalThis as { stepwiseTestPostgres?: { server: Promise<Server>; users: number } };

/** Starts the cluster (a few seconds), or uses STEPWISE_TEST_DATABASE_URL; undefined when neither can be had. */
async function startServer(): Promise<Server | undefined> {
  const given = process.env.STEPWISE_TEST_DATABASE_URL;
  if (given) return { url: given, template: await makeTemplate(given), stop: async () => undefined };
  if (!postgresAvailable()) {
    if (process.env.CI) throw new Error('CI needs PostgreSQL: apt-get install -y postgresql');
    process.stderr.write('PostgreSQL is not installed: its tests are skipped (apt-get install -y postgresql)\n');
    return undefined;
  }
  const cluster = await startPostgresCluster({ fast: true });
  const url = cluster.socketUrlOf('postgres');
  return { url, template: await makeTemplate(url), stop: () => cluster.stop() };
}

/** Provides the server to the project's tests and returns the teardown (the last user stops it). */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const entry = (shared.stepwiseTestPostgres ??= {
    server: startServer().then((s) => s ?? { url: '', template: '', stop: async () => undefined }),
    users: 0,
  });
  entry.users++;
  const server = await entry.server;
  project.provide('postgresUrl', server.url);
  project.provide('postgresTemplate', server.template);
  return async () => {
    if (--entry.users > 0) return;
    shared.stepwiseTestPostgres = undefined;
    await server.stop();
  };
}
