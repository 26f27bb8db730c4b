import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDist } from '../helpers/build-dist.js';
import { freePort, REPO_ROOT } from '../helpers/spawned-server.js';
import { tempDir } from '../helpers/temp-dir.js';

const run = promisify(execFile);
const ROOT = REPO_ROOT;
const BIN = path.join(ROOT, 'bin/stepwise.js');

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

let dataDir: string;
let port: number;
let base: string;
let server: ChildProcess;
let output = '';
let exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
const bootstrapKey = `e2e-${randomBytes(16).toString('hex')}`;

async function api(method: 'GET' | 'POST', url: string, key: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    parsed = { raw: text };
  }
  return { status: res.status, body: parsed };
}

/** Runs `node bin/stepwise.js keys ...` against the data dir; returns its stdout lines. */
async function keysCli(...args: string[]): Promise<string[]> {
  const { stdout } = await run(process.execPath, [BIN, 'keys', ...args], {
    cwd: ROOT,
    env: { ...process.env, STEPWISE_BOOTSTRAP_KEY: '' },
  });
  return stdout.split('\n').filter((line) => line.trim() !== '');
}

beforeAll(async () => {
  await buildDist();
  dataDir = tempDir('stepwise-e2e-');
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, [BIN, 'serve', '--port', String(port), '--data', dataDir], {
    cwd: ROOT,
    env: { ...process.env, STEPWISE_BOOTSTRAP_KEY: bootstrapKey, STEPWISE_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  exit = new Promise((resolve) => server.once('exit', (code, signal) => resolve({ code, signal })));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const res = await fetch(`${base}/api/health`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not become healthy:\n${output}`);
    await sleep(100);
  }
}, 300_000);

afterAll(async () => {
  if (server && server.exitCode === null && server.signalCode === null) {
    server.kill('SIGKILL');
    await exit;
  }
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the stepwise server over real HTTP', () => {
  it('answers /api/health without a key', async () => {
    const res = await fetch(`${base}/api/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
  });

  it('creates a run, updates its status and reads back details and history with the bootstrap key', async () => {
    const created = await api('POST', '/api/runs/create', bootstrapKey, {
      runName: 'e2e',
      projectName: 'my-ml-project',
      config: '{"lr":0.1}',
      tags: ['e2e'],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({ number: 1, displayId: 'MMP-1', organizationSlug: 'default', resumed: false });
    expect(created.body.url).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:${port}/o/default/projects/my-ml-project/[a-zA-Z0-9]{5,}$`),
    );
    const runId = created.body.runId as number;

    const updated = await api('POST', '/api/runs/status/update', bootstrapKey, {
      runId,
      status: 'COMPLETED',
      statusMetadata: '{"ok":true}',
    });
    expect(updated).toEqual({ status: 200, body: { success: true } });

    const details = await api('GET', `/api/runs/details/${runId}`, bootstrapKey);
    expect(details.status).toBe(200);
    expect(details.body).toMatchObject({
      id: runId,
      name: 'e2e',
      status: 'COMPLETED',
      tags: ['e2e'],
      config: { lr: 0.1 },
      statusMetadata: { ok: true },
      projectName: 'my-ml-project',
    });

    const history = await api('GET', `/api/runs/status/history?runId=${runId}`, bootstrapKey);
    expect(history.status).toBe(200);
    expect(
      (history.body.events as { fromStatus: string | null; toStatus: string }[]).map((e) => [e.fromStatus, e.toStatus]),
    ).toEqual([
      [null, 'RUNNING'],
      ['RUNNING', 'COMPLETED'],
    ]);
  });

  it('refuses a request without a key with 401 "Missing API key"', async () => {
    const res = await fetch(`${base}/api/runs/projects`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'Missing API key', code: 'UNAUTHORIZED' });
  });

  it('writes the bootstrap key to <data>/bootstrap-key readable only by the owner', () => {
    const file = path.join(dataDir, 'bootstrap-key');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8').trim()).toBe(bootstrapKey);
  });

  let otherKey = '';
  it('keys create prints a working key of the new organization as its last line while the server runs', async () => {
    const lines = await keysCli('create', '--data', dataDir, '--org', 'other');
    otherKey = lines.at(-1)!.trim();
    expect(otherKey.length).toBeGreaterThanOrEqual(20);
    const res = await api('GET', '/api/runs/auth/validate', otherKey);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ valid: true, organization: { slug: 'other' } });
    const projects = await api('GET', '/api/runs/projects', otherKey);
    expect(projects.body).toEqual({ projects: [] });
  });

  it('keys list never prints a full key', async () => {
    const lines = await keysCli('list', '--data', dataDir);
    const text = lines.join('\n');
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(text).toContain('other');
    expect(text).not.toContain(bootstrapKey);
    expect(text).not.toContain(otherKey);
    expect(text).not.toContain(otherKey.slice(0, 20));
  });

  it('keys revoke makes the key get 401 "API key has been revoked" within 1.5 s', async () => {
    expect((await api('GET', '/api/runs/auth/validate', otherKey)).status).toBe(200);
    await keysCli('revoke', '--data', dataDir, otherKey);
    const revokedAt = Date.now();
    let last: Answer | undefined;
    while (Date.now() - revokedAt < 1500) {
      last = await api('GET', '/api/runs/auth/validate', otherKey);
      if (last.status === 401) break;
      await sleep(50);
    }
    expect(last?.status).toBe(401);
    expect(last?.body).toEqual({ error: 'API key has been revoked', code: 'UNAUTHORIZED' });
    expect((await api('GET', '/api/runs/auth/validate', bootstrapKey)).status).toBe(200);
  });

  it('exits 0 on SIGTERM', async () => {
    server.kill('SIGTERM');
    const result = await Promise.race([exit, sleep(15_000).then(() => ({ code: -1, signal: null }))]);
    expect(result, output).toEqual({ code: 0, signal: null });
  });
});
