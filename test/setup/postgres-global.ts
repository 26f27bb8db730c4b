/**
 * Vitest global setup: one throwaway PostgreSQL cluster for the run (or the server at
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

/** Starts the cluster (a few seconds) and returns its teardown. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env.STEPWISE_TEST_DATABASE_URL;
  if (given) {
    project.provide('postgresUrl', given);
    project.provide('postgresTemplate', await makeTemplate(given));
    return async () => undefined;
  }
  if (!postgresAvailable()) {
    if (process.env.CI) throw new Error('CI needs PostgreSQL: apt-get install -y postgresql');
    process.stderr.write('PostgreSQL is not installed: its tests are skipped (apt-get install -y postgresql)\n');
    project.provide('postgresUrl', '');
    project.provide('postgresTemplate', '');
    return async () => undefined;
  }
  const cluster = await startPostgresCluster({ fast: true });
  const url = cluster.socketUrlOf('postgres');
  project.provide('postgresUrl', url);
  project.provide('postgresTemplate', await makeTemplate(url));
  return () => cluster.stop();
}
