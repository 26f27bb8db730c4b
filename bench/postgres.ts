/**
 * PostgreSQL for `npm run bench`: the server at BENCH_DATABASE_URL (a URL the bench may
 * create databases with), or else a throwaway cluster of Debian's PostgreSQL started here
 * with its default, durable settings (fsync and synchronous_commit on). BENCH_POSTGRES=0
 * skips the PostgreSQL half.
 */
import pg from 'pg';
import { postgresAvailable, startPostgresCluster } from '../test/helpers/postgres-cluster.js';

/** Two fresh databases: one for the server under test, one for the raw-store baseline. */
export interface BenchPostgres {
  label: string;
  serverUrl: string;
  rawUrl: string;
  stop(): Promise<void>;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function freshDatabases(admin: string, names: readonly string[]): Promise<void> {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    for (const name of names) {
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${name}`);
    }
  } finally {
    await client.end();
  }
}

/** Returns the databases to bench, or undefined when PostgreSQL is skipped or not installed. */
export async function benchPostgres(env: NodeJS.ProcessEnv = process.env): Promise<BenchPostgres | undefined> {
  if (env.BENCH_POSTGRES === '0') return undefined;
  const given = env.BENCH_DATABASE_URL;
  if (!given && !postgresAvailable()) return undefined;
  const cluster = given ? undefined : await startPostgresCluster();
  const admin = given ?? cluster!.url;
  await freshDatabases(admin, ['stepwise_bench', 'stepwise_bench_raw']);
  const version = new pg.Client({ connectionString: admin });
  await version.connect();
  const row = (await version.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0];
  await version.end();
  return {
    label: `PostgreSQL ${row?.v ?? '?'} (${given ? 'BENCH_DATABASE_URL' : 'local cluster over loopback TCP, default durable settings'})`,
    serverUrl: withDatabase(admin, 'stepwise_bench'),
    rawUrl: withDatabase(admin, 'stepwise_bench_raw'),
    stop: async () => {
      if (cluster) await cluster.stop();
    },
  };
}
