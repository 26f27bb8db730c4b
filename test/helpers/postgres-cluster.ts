/**
 * A throwaway PostgreSQL cluster for tests and the benchmark: Debian's server binaries
 * (`apt-get install postgresql`), a fresh data directory under the temp dir, a free port on
 * loopback, trust authentication. As root the server runs as the `postgres` OS user.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A running cluster; `url` connects as the superuser `postgres` to database `postgres` over TCP. */
export interface PostgresCluster {
  url: string;
  port: number;
  /** The TCP URL of the same server and user with another database name. */
  urlOf(database: string): string;
  /** The same over the Unix socket (about half the round-trip time of loopback TCP). */
  socketUrlOf(database: string): string;
  /** Stops the server (fast shutdown) and removes its directory. */
  stop(): Promise<void>;
}

/** Options of startPostgresCluster. */
export interface ClusterOptions {
  /** Trade durability for speed (fsync, synchronous_commit and full_page_writes off); tests want it. */
  fast?: boolean;
}

/** The bin directory of the newest installed server (STEPWISE_PG_BIN overrides); throws when none. */
export function postgresBinDir(): string {
  const fromEnv = process.env.STEPWISE_PG_BIN;
  if (fromEnv) return fromEnv;
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions[0] === undefined) {
    throw new Error('PostgreSQL server binaries not found: apt-get install -y postgresql (or set STEPWISE_PG_BIN)');
  }
  return path.join(root, versions[0], 'bin');
}

/** True when the server binaries are installed. */
export function postgresAvailable(): boolean {
  try {
    postgresBinDir();
    return true;
  } catch {
    return false;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Runs a server binary, as the `postgres` OS user when we are root. */
async function asOwner(bin: string, args: readonly string[]): Promise<void> {
  const root = process.getuid?.() === 0;
  const [cmd, argv] = root ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, [...args]];
  try {
    await run(cmd, argv, { timeout: 120_000 });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${path.basename(bin)} failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
}

/**
 * Creates and starts a cluster (initdb, then pg_ctl start -w) on a free loopback port.
 * Takes a few seconds. Throws with the server's output when a step fails.
 */
export async function startPostgresCluster(options: ClusterOptions = {}): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-pg-'));
  fs.chmodSync(dir, 0o755);
  if (process.getuid?.() === 0) await run('chown', ['postgres:', dir]);
  const data = path.join(dir, 'data');
  await asOwner(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C']);
  const port = await freePort();
  const settings = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${dir}`,
    '-c max_connections=300',
    '-c shared_buffers=128MB',
    ...(options.fast ? ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off'] : []),
  ];
  const log = path.join(dir, 'server.log');
  try {
    await asOwner(path.join(bin, 'pg_ctl'), [
      '-D',
      data,
      '-l',
      log,
      '-o',
      settings.join(' '),
      '-w',
      '-t',
      '60',
      'start',
    ]);
  } catch (err) {
    const tail = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').slice(-2000) : '';
    throw new Error(`${(err as Error).message}\n${tail}`);
  }
  const urlOf = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  let stopped: Promise<void> | undefined;
  return {
    url: urlOf('postgres'),
    port,
    urlOf,
    socketUrlOf: (database) => `${urlOf(database)}?host=${encodeURIComponent(dir)}`,
    stop: () =>
      (stopped ??= (async () => {
        await asOwner(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']).catch(() => undefined);
        fs.rmSync(dir, { recursive: true, force: true });
      })()),
  };
}
