import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is test/helpers/spawned-server.ts). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Compiles src/ to dist/ with the build config; rejects with the compiler output on failure. */
export function buildDist(): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      'npx',
      ['tsc', '-p', 'tsconfig.build.json'],
      { cwd: REPO_ROOT, timeout: 240_000 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`npx tsc -p tsconfig.build.json failed:\n${stdout}${stderr}`));
        else resolve();
      },
    );
  });
}

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
  /** Everything the process wrote so far (stdout and stderr). */
  output(): string;
  /** SIGTERM, wait for the exit (SIGKILL after 10 s), remove the data dir. Returns the exit code. */
  stop(): Promise<number | null>;
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
export async function spawnServer(extraArgs: readonly string[] = []): Promise<SpawnedServer> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-e2e-'));
  const key = `e2e_${randomBytes(20).toString('hex')}`;
  const child = spawn(
    process.execPath,
    ['bin/stepwise.js', 'serve', '--port', String(port), '--data', dataDir, ...extraArgs],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, STEPWISE_BOOTSTRAP_KEY: key, STEPWISE_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const code = await exited;
    clearTimeout(timer);
    fs.rmSync(dataDir, { recursive: true, force: true });
    return code;
  };
  try {
    await waitForHealth(baseUrl, child, () => log, 30_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { baseUrl, port, key, dataDir, output: () => log, stop };
}
