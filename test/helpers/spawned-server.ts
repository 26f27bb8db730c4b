import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** The repository root (this file is test/helpers/spawned-server.ts). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export { buildDist } from './build-dist.js';

/** A TCP port that was free on 127.0.0.1 a moment ago. */
export function freePort(): Promise<number> {
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

/** Whether something already listens on (or holds) the port on 127.0.0.1. */
export function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(true));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(false)));
  });
}

/** A `stepwise serve` child process on loopback. */
export interface SpawnedServer {
  /** `http://127.0.0.1:<port>`. */
  baseUrl: string;
  port: number;
  /** The STEPWISE_BOOTSTRAP_KEY the server was started with. */
  key: string;
  dataDir: string;
  /** The server's process id. */
  pid: number;
  /** Everything the process wrote so far (stdout and stderr). */
  output(): string;
  /** SIGTERM, wait for the exit (SIGKILL after 10 s), remove the data dir unless `keepData`. Returns the exit code. */
  stop(options?: { keepData?: boolean }): Promise<number | null>;
  /** Sends SIGKILL and waits for the process to be gone; the data dir stays. */
  kill(): Promise<void>;
}

/** How to start a server beyond its flags. */
export interface SpawnOptions {
  /** Reuse this data dir (a restart) instead of a fresh temporary one. */
  dataDir?: string;
  /** The STEPWISE_BOOTSTRAP_KEY (pass the first start's key on a restart). */
  key?: string;
  /** Extra environment variables (STEPWISE_LOG_LEVEL defaults to warn). */
  env?: Record<string, string>;
  /** Listen on this port instead of a free one. */
  port?: number;
}

async function waitForHealth(
  baseUrl: string,
  child: ChildProcess,
  output: () => string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`stepwise exited with ${child.exitCode} before it was healthy:\n${output()}`);
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`stepwise did not answer ${baseUrl}/api/health within ${timeoutMs} ms:\n${output()}`);
}

/**
 * Starts `node bin/stepwise.js serve --port <free> --data <tmp> ...extraArgs` with a fresh
 * STEPWISE_BOOTSTRAP_KEY and waits until GET /api/health answers 200.
 */
export async function spawnServer(
  extraArgs: readonly string[] = [],
  options: SpawnOptions = {},
): Promise<SpawnedServer> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-e2e-'));
  const key = options.key ?? `e2e_${randomBytes(20).toString('hex')}`;
  const child = spawn(
    process.execPath,
    ['bin/stepwise.js', 'serve', '--port', String(port), '--data', dataDir, ...extraArgs],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, STEPWISE_BOOTSTRAP_KEY: key, STEPWISE_LOG_LEVEL: 'warn', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async ({ keepData = false } = {}): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const code = await exited;
    clearTimeout(timer);
    if (!keepData) fs.rmSync(dataDir, { recursive: true, force: true });
    return code;
  };
  const kill = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  try {
    await waitForHealth(baseUrl, child, () => log, 30_000);
  } catch (err) {
    await stop({ keepData: options.dataDir !== undefined });
    throw err;
  }
  return { baseUrl, port, key, dataDir, pid: child.pid ?? 0, output: () => log, stop, kill };
}

/**
 * Returns a new API key of organization `org` (created when missing), made by
 * `stepwise keys create --data <dataDir> --org <org> ...extraArgs` (works while a server runs
 * on the data dir). Rejects when the command fails.
 */
export async function createOrgKey(dataDir: string, org: string, extraArgs: readonly string[] = []): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [path.join(REPO_ROOT, 'bin/stepwise.js'), 'keys', 'create', '--data', dataDir, '--org', org, ...extraArgs],
    { encoding: 'utf8' },
  );
  return stdout.trim().split('\n').pop()!.trim();
}
