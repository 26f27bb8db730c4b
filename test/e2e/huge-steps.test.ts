/**
 * Issue 14: any step the API accepts (0..2^53−1) is read back in bounded time and memory.
 * A metric with steps 0 and 2^53−1, or 0..4,999 and a microsecond timestamp of 1e15, once
 * made one read tile ~134M (or ~15M) rollup buckets: the server stopped answering and died
 * out of memory. Here every read answers 200 within 2 s over real HTTP, the spawned server's
 * RSS grows by less than 100 MB, and /api/health still answers; a fork of such a run too.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ingestHttp } from '../helpers/http-client.js';
import { buildDist, spawnServer, type SpawnedServer } from '../helpers/spawned-server.js';

const HUGE = Number.MAX_SAFE_INTEGER;
const MICRO = 1e15;
const PROJECT = 'huge-steps';
/** The value of `micros` at a step below 5,000 (a planted dip at 2,500). */
const micros = (step: number): number => (step === 2500 ? -9 : Math.sin(step / 50));

let server: SpawnedServer;
let parentId: number;
let childId: number;
let rssBefore = 0;

/** The spawned server's resident set size in MB (VmRSS of /proc/<pid>/status). */
function rssMb(): number {
  const status = fs.readFileSync(`/proc/${server.pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return Number(kb) / 1024;
}

/** Ingests NDJSON metric lines `[step, {logName: value}]` in requests of 1,000 lines. */
async function ingest(runId: number, lines: [number, Record<string, number>][]): Promise<void> {
  for (let i = 0; i < lines.length; i += 1000) {
    const body = lines
      .slice(i, i + 1000)
      .map(([step, data]) => JSON.stringify({ time: 1_700_000_000_000, step, data }))
      .join('\n');
    const res = await ingestHttp(server.baseUrl, server.key, 'metrics', runId, PROJECT, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
}

/** GETs a read that must answer 200 within 2 s; returns its body. */
async function read(url: string): Promise<Record<string, unknown>> {
  const started = performance.now();
  const res = await http(server.baseUrl, 'GET', url, { key: server.key, timeoutMs: 10_000 });
  const ms = performance.now() - started;
  console.log(`${url}: ${res.status} in ${ms.toFixed(0)} ms, RSS ${rssMb().toFixed(0)} MB`);
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
  expect(ms, url).toBeLessThan(2000);
  return res.body;
}

/** The [step, value] pairs of GET /api/runs/metrics for one metric of a run. */
async function points(runId: number, logName: string, query = ''): Promise<[number, number | null][]> {
  const body = await read(`/api/runs/metrics?runId=${runId}&logName=${logName}${query}`);
  const metrics = body.metrics as { logName: string; step: number; value: number | null }[];
  expect(metrics.every((p) => p.logName === logName)).toBe(true);
  return metrics.map((p) => [p.step, p.value]);
}

/** Asserts a sampled answer holds real points in step order with the first, last, minimum and maximum. */
function expectSampled(got: [number, number | null][], expected: [number, number][], limit: number): void {
  const real = new Map(expected);
  expect(got.length).toBeLessThanOrEqual(limit);
  expect(got.every(([step, value], i) => real.get(step) === value && (i === 0 || step > got[i - 1]![0]))).toBe(true);
  expect(got[0]).toEqual(expected[0]);
  expect(got[got.length - 1]).toEqual(expected[expected.length - 1]);
  const values = got.map(([, v]) => v);
  expect(values).toContain(Math.min(...expected.map(([, v]) => v)));
  expect(values).toContain(Math.max(...expected.map(([, v]) => v)));
}

const microsOf = (from: number, to: number): [number, number][] =>
  Array.from({ length: to - from + 1 }, (_, i) => [from + i, micros(from + i)]);

beforeAll(async () => {
  await buildDist();
  // A regression then dies at 1 GB instead of taking 4 GB of a shared machine.
  server = await spawnServer([], { env: { NODE_OPTIONS: '--max-old-space-size=1024' } });
  const created = await http(server.baseUrl, 'POST', '/api/runs/create', {
    key: server.key,
    json: { runName: 'huge', projectName: PROJECT },
  });
  parentId = created.body.runId as number;
  await ingest(parentId, [
    [0, { huge: 1 }],
    [HUGE, { huge: 2 }],
  ]);
  await ingest(parentId, [
    ...microsOf(0, 4999).map(([s, v]): [number, Record<string, number>] => [s, { micros: v }]),
    [MICRO, { micros: 42 }],
  ]);
  const fork = await http(server.baseUrl, 'POST', '/api/runs/create', {
    key: server.key,
    json: { runName: 'child', projectName: PROJECT, forkRunId: parentId, forkStep: MICRO },
  });
  expect(fork.status, JSON.stringify(fork.body)).toBe(200);
  childId = fork.body.runId as number;
  await ingest(
    childId,
    Array.from({ length: 100 }, (_, i): [number, Record<string, number>] => [MICRO + 1 + i, { micros: 100 + i }]),
  );
  // Warm up the read path on a small range, so the RSS baseline includes compiled code.
  await points(parentId, 'micros', '&stepMax=10');
  rssBefore = rssMb();
}, 300_000);

afterAll(async () => {
  if (server) console.log(`RSS: ${rssBefore.toFixed(0)} MB before the reads, ${rssMb().toFixed(0)} MB after`);
  await server?.stop();
});

describe('metrics with steps up to 2^53−1 over real HTTP', () => {
  it('reads steps 0 and 2^53−1 whole, by step range and sampled, each within 2 s', async () => {
    const both: [number, number][] = [
      [0, 1],
      [HUGE, 2],
    ];
    expect(await points(parentId, 'huge')).toEqual(both);
    expect(await points(parentId, 'huge', `&stepMin=0&stepMax=${HUGE}`)).toEqual(both);
    expect(await points(parentId, 'huge', `&stepMin=0&stepMax=${HUGE}&limit=1`)).toEqual([both[0]]);
    expect(await points(parentId, 'huge', `&stepMin=1&stepMax=${HUGE}&limit=3`)).toEqual([both[1]]);
    expect(await points(parentId, 'huge', `&stepMin=${2 ** 52}`)).toEqual([both[1]]);
  });

  it('reads 0..4,999 and step 1e15 sampled with the spike and dip, and whole within the limit', async () => {
    const all: [number, number][] = [...microsOf(0, 4999), [MICRO, 42]];
    expectSampled(await points(parentId, 'micros'), all, 2000);
    expectSampled(await points(parentId, 'micros', `&stepMin=0&stepMax=${HUGE}&limit=10`), all, 10);
    expect(await points(parentId, 'micros', `&stepMin=0&stepMax=${MICRO}&limit=10000`)).toEqual(all);
    expect(await points(parentId, 'micros', `&stepMin=5000&stepMax=${HUGE}`)).toEqual([[MICRO, 42]]);
    await read(`/api/runs/statistics?runId=${parentId}&logName=micros`);
  });

  it('reads a fork at step 1e15 of that run through its lineage, each within 2 s', async () => {
    const own = Array.from({ length: 100 }, (_, i): [number, number] => [MICRO + 1 + i, 100 + i]);
    const all: [number, number][] = [...microsOf(0, 4999), [MICRO, 42], ...own];
    expect(await points(childId, 'micros', '&limit=10000')).toEqual(all);
    expectSampled(await points(childId, 'micros'), all, 2000);
    expectSampled(await points(childId, 'micros', `&stepMin=4000&stepMax=${HUGE}&limit=50`), all.slice(4000), 50);
    expect(await points(childId, 'huge')).toEqual([[0, 1]]);
    await read(`/api/runs/statistics?runId=${childId}`);
  });

  it('still answers /api/health, and the server grew by less than 100 MB', async () => {
    expect((await http(server.baseUrl, 'GET', '/api/health', { timeoutMs: 2000 })).status).toBe(200);
    const growth = rssMb() - rssBefore;
    console.log(`RSS growth over the reads: ${growth.toFixed(1)} MB`);
    expect(growth).toBeLessThan(100);
  });
});
