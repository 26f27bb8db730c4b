/**
 * Helpers of the backup, restore and copy end-to-end tests: the CLI as a child process, a
 * data set written over HTTP, and the acceptance reads compared between two servers.
 */
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { http, ingestHttp, toBody } from './http-client.js';
import { REPO_ROOT } from './spawned-server.js';

/** Runs `stepwise <args>`; resolves with the exit code and output. */
export async function cli(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [path.join(REPO_ROOT, 'bin/stepwise.js'), ...args],
      { encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 },
    );
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/**
 * Starts `stepwise <args>` and SIGKILLs it as soon as `until()` (asked every 20 ms) is true;
 * resolves with its stderr, rejects when it exits before.
 */
export function cliKilledWhen(
  args: readonly string[],
  until: () => Promise<boolean>,
  env: Record<string, string> = {},
): Promise<string> {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin/stepwise.js'), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setInterval(() => {
    void until().then(
      (yes) => yes && child.exitCode === null && child.kill('SIGKILL'),
      () => undefined,
    );
  }, 20);
  return new Promise((resolve, reject) => {
    child.once('exit', (code, signal) => {
      clearInterval(timer);
      if (signal === 'SIGKILL') resolve(stderr);
      else reject(new Error(`exited ${code} before it was killed:\n${stderr}`));
    });
  });
}

/** The value of metric `name` at `step` in the data sets written here. */
export const valueAt = (name: string, step: number): number => Math.sin(step / 97 + name.length) * (1 + step / 1e5);

/** Metrics NDJSON of steps [from, to) for every name; times 1.7e12 + step. */
export function metricsBody(names: readonly string[], from: number, to: number): string {
  const lines: string[] = [];
  for (let step = from; step < to; step++) {
    const data: Record<string, number> = {};
    for (const n of names) data[n] = valueAt(n, step);
    lines.push(`{"time":${1_700_000_000_000 + step},"step":${step},"data":${JSON.stringify(data)}}`);
  }
  return lines.join('\n');
}

/** A server to write to and read from: its base URL and key. */
export interface Api {
  baseUrl: string;
  key: string;
}

/** POST /api/runs/create that must succeed; returns the run id. */
export async function createRun(s: Api, body: Record<string, unknown>): Promise<number> {
  const res = await http(s.baseUrl, 'POST', '/api/runs/create', { key: s.key, json: body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.runId as number;
}

/** Ingests metrics of steps [from, to) in requests of `per` steps; each must be acknowledged. */
export async function ingestSteps(
  s: Api,
  runId: number,
  project: string,
  names: readonly string[],
  from: number,
  to: number,
  per = 10_000,
): Promise<void> {
  for (let at = from; at < to; at += per) {
    const res = await ingestHttp(
      s.baseUrl,
      s.key,
      'metrics',
      runId,
      project,
      metricsBody(names, at, Math.min(to, at + per)),
      60_000,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
}

/** Writes `count` console lines and 20 data lines, and uploads `files` files of a few KB; returns their SHA-256 by name. */
export async function addLinesAndFiles(s: Api, runId: number, project: string, count: number, files: number) {
  const lines = Array.from({ length: count }, (_, i) =>
    JSON.stringify({
      time: 1_700_000_000_000 + i,
      message: `line ${i} of run ${runId}`,
      lineNumber: i,
      logType: 'INFO',
    }),
  );
  expect((await ingestHttp(s.baseUrl, s.key, 'logs', runId, project, lines.join('\n'))).status).toBe(200);
  const data = Array.from({ length: 20 }, (_, step) =>
    JSON.stringify({
      time: 1_700_000_000_000 + step,
      data: `{"bins":[${step},1]}`,
      step,
      dataType: 'HISTOGRAM',
      logName: 'hist',
    }),
  );
  expect((await ingestHttp(s.baseUrl, s.key, 'data', runId, project, data.join('\n'))).status).toBe(200);
  const sums: Record<string, string> = {};
  for (let i = 0; i < files; i++) {
    const fileName = `sample-${i}.bin`;
    const bytes = createHash('sha512').update(`${runId}/${i}`).digest();
    const body = Buffer.concat(Array.from({ length: 40 * (i + 1) }, () => bytes));
    const meta = {
      fileName,
      logName: 'samples',
      fileSize: body.length,
      fileType: 'bin',
      step: i,
      time: 1_700_000_000_000,
    };
    const headers = { 'x-run-id': String(runId), 'x-project-name': project };
    const links = await http(s.baseUrl, 'POST', '/files', { key: s.key, json: { files: [meta] }, headers });
    expect(links.status, JSON.stringify(links.body)).toBe(200);
    const url = (links.body.samples as Record<string, string>[])[0]![fileName]!;
    expect((await fetch(url, { method: 'PUT', body: toBody(body) })).status).toBe(200);
    sums[fileName] = createHash('sha256').update(body).digest('hex');
  }
  return sums;
}

/** A signed link or a link to the server itself: replaced, since it differs between servers. */
const normalise = (baseUrl: string) => (_key: string, v: unknown) => {
  if (typeof v !== 'string') return v;
  if (/expires=|X-Amz-/.test(v)) return '<signed link>';
  return v.replaceAll(baseUrl, '<server>');
};

/** GETs url; returns status and the body as normalised JSON text. */
async function read(s: Api, url: string): Promise<string> {
  const res = await fetch(`${s.baseUrl}${url}`, { headers: { authorization: `Bearer ${s.key}` } });
  const text = await res.text();
  expect(res.status, `${url}: ${text.slice(0, 300)}`).toBe(200);
  return `${res.status} ${JSON.stringify(JSON.parse(text) as unknown, normalise(s.baseUrl))}`;
}

/**
 * The run and series acceptance reads of a project: projects, run list, metric names, and per
 * run its details (also by display id), timeline, sampled and exact metric reads, statistics,
 * logs, files, and the multi-run series read. Returns each answer by URL.
 */
export async function acceptanceReads(s: Api, project: string): Promise<Record<string, string>> {
  const urls = [
    '/api/runs/projects',
    `/api/runs/list?projectName=${project}`,
    `/api/runs/metric-names?projectName=${project}`,
  ];
  const list = await http(s.baseUrl, 'GET', `/api/runs/list?projectName=${project}`, { key: s.key });
  const runs = list.body.runs as { id: number; displayId: string }[];
  for (const r of runs) {
    const q = `runId=${r.id}&projectName=${project}`;
    urls.push(
      `/api/runs/details/${r.id}`,
      `/api/runs/details/by-display-id/${r.displayId}`,
      `/api/runs/status/history?runId=${r.id}`,
      `/api/runs/metrics?${q}`,
      `/api/runs/metrics?${q}&logName=train/loss&stepMin=199000&stepMax=201999&limit=10000`,
      `/api/runs/statistics?${q}`,
      `/api/runs/logs?${q}&limit=10000`,
      `/api/runs/data?${q}`,
      `/api/runs/files?${q}`,
      `/api/runs/leaderboard?projectName=${project}&logName=train/loss&aggregation=MAX`,
    );
  }
  urls.push(`/api/runs/series?runIds=${runs.map((r) => r.id).join(',')}&logName=train/loss`);
  const out: Record<string, string> = {};
  for (const url of urls) out[url] = await read(s, url);
  return out;
}

/** The SHA-256 of every file of a run, downloaded through its signed link. */
export async function fileSums(s: Api, runId: number, project: string): Promise<Record<string, string>> {
  const res = await http(s.baseUrl, 'GET', `/api/runs/files?runId=${runId}&projectName=${project}`, { key: s.key });
  const sums: Record<string, string> = {};
  for (const f of res.body.files as { fileName: string; url: string }[]) {
    const bytes = Buffer.from(await (await fetch(f.url)).arrayBuffer());
    sums[f.fileName] = createHash('sha256').update(bytes).digest('hex');
  }
  return sums;
}
