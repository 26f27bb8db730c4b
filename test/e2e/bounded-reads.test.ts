/**
 * Bounded reads (issue 14, finding 3): a run of 20,000 metrics × 50 steps, stored by one
 * ~24 MB ingest. Reading all of its metrics must not answer a million points (it is refused
 * with 400 RESULT_TOO_LARGE naming logName/logGroup), reads within the bound must answer in
 * full, and none of them may hold the event loop: a concurrent /api/health, polled in a
 * loop while the reads run, must always answer within 250 ms.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ingestHttp } from '../helpers/http-client.js';
import { buildDist, spawnServer, type SpawnedServer } from '../helpers/spawned-server.js';

const METRICS = 20_000;
const STEPS = 50;
const GROUPS = 100;
const PROJECT = 'wide';
/** The documented default of STEPWISE_READ_MAX_ITEMS. */
const MAX_ITEMS = 100_000;
const HEALTH_BOUND_MS = 250;

let server: SpawnedServer;
let runId: number;

/** One ingest body: STEPS lines, each with a value for every one of the METRICS names. */
function wideBody(): string {
  const names = Array.from({ length: METRICS }, (_, i) => JSON.stringify(`g${i % GROUPS}/m${i}`));
  const lines: string[] = [];
  for (let step = 0; step < STEPS; step++) {
    const data = names.map((n, i) => `${n}:${Math.sin(step + i) * 1000}`).join(',');
    lines.push(`{"time":${1_700_000_000_000 + step},"step":${step},"data":{${data}}}`);
  }
  return `${lines.join('\n')}\n`;
}

beforeAll(async () => {
  await buildDist();
  server = await spawnServer();
  const created = await http(server.baseUrl, 'POST', '/api/runs/create', {
    key: server.key,
    json: { runName: 'wide', projectName: PROJECT },
  });
  runId = created.body.runId as number;
  const body = wideBody();
  const started = performance.now();
  const res = await ingestHttp(server.baseUrl, server.key, 'metrics', runId, PROJECT, body, 300_000);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  console.log(
    `ingested ${METRICS} metrics × ${STEPS} steps (${(body.length / 1e6).toFixed(1)} MB) in ${(performance.now() - started).toFixed(0)} ms`,
  );
}, 600_000);
afterAll(async () => {
  await server?.stop();
});

interface Timed {
  status: number;
  bytes: number;
  ms: number;
  text: string;
}

/** A GET whose body is kept as text (parsing 10 MB here would stall this process's own clock). */
async function timedGet(url: string): Promise<Timed> {
  const started = performance.now();
  const res = await fetch(`${server.baseUrl}${url}`, {
    headers: { authorization: `Bearer ${server.key}` },
    signal: AbortSignal.timeout(120_000),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, bytes: bytes.length, ms: performance.now() - started, text: bytes.toString('utf8') };
}

/**
 * Runs the reads at once (and waits at least minMs) while polling /api/health back to back;
 * returns their answers, the slowest health answer and the number of health answers.
 */
async function whileHealthPolled(
  urls: readonly string[],
  minMs = 0,
): Promise<{ reads: Timed[]; worstMs: number; polls: number }> {
  let done = false;
  let worstMs = 0;
  let polls = 0;
  const poller = (async () => {
    while (!done) {
      const started = performance.now();
      const res = await fetch(`${server.baseUrl}/api/health`, { signal: AbortSignal.timeout(30_000) });
      await res.arrayBuffer();
      worstMs = Math.max(worstMs, performance.now() - started);
      polls++;
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  const waited = new Promise((r) => setTimeout(r, minMs));
  const reads = await Promise.all(urls.map(timedGet)).finally(() => waited.then(() => (done = true)));
  await poller;
  return { reads, worstMs, polls };
}

const peakRssMb = (): number =>
  Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.pid}/status`, 'utf8'))![1]) / 1024;

function report(what: string, r: { reads: Timed[]; worstMs: number; polls: number }): void {
  const reads = r.reads.map((x) => `${x.status} ${(x.bytes / 1e6).toFixed(2)} MB in ${x.ms.toFixed(0)} ms`);
  console.log(
    `${what}: ${reads.join('; ')} | health worst ${r.worstMs.toFixed(0)} ms over ${r.polls} polls | server peak RSS ${peakRssMb().toFixed(0)} MB`,
  );
}

describe('reads of a run with 20,000 metrics × 50 steps', () => {
  it('answers health within the bound while idle (the baseline of this machine)', async () => {
    const r = await whileHealthPolled([], 2_000);
    report('idle', r);
    expect(r.worstMs).toBeLessThan(HEALTH_BOUND_MS);
  });

  it('refuses a read of all its metrics with a 400 naming logName and logGroup, four at once, without delaying health', async () => {
    const url = `/api/runs/metrics?runId=${runId}`;
    const r = await whileHealthPolled([url, url, url, url]);
    report('all metrics ×4', r);
    for (const read of r.reads) {
      expect(read.status).toBe(400);
      const body = JSON.parse(read.text) as { error: string; code: string };
      expect(body.code).toBe('RESULT_TOO_LARGE');
      expect(body.error).toContain(String(MAX_ITEMS));
      expect(body.error).toContain('logName');
      expect(body.error).toContain('logGroup');
    }
    expect(r.worstMs).toBeLessThan(HEALTH_BOUND_MS);
  }, 120_000);

  it('answers every metric at limit=4 (80,000 points at most, within the bound) without delaying health', async () => {
    const r = await whileHealthPolled([`/api/runs/metrics?runId=${runId}&limit=4`]);
    report('all metrics at limit=4', r);
    const [read] = r.reads;
    expect(read?.status).toBe(200);
    const { metrics } = JSON.parse(read!.text) as { metrics: { logName: string; step: number }[] };
    expect(metrics.length).toBeLessThanOrEqual(MAX_ITEMS);
    expect(new Set(metrics.map((p) => p.logName)).size).toBe(METRICS);
    expect(metrics.filter((p) => p.logName === 'g0/m0').map((p) => p.step)[0]).toBe(0);
    expect(r.worstMs).toBeLessThan(HEALTH_BOUND_MS);
  }, 120_000);

  it('answers one logGroup in full: 200 metrics × 50 steps', async () => {
    const read = await timedGet(`/api/runs/metrics?runId=${runId}&logGroup=g7`);
    expect(read.status).toBe(200);
    const { metrics } = JSON.parse(read.text) as { metrics: { logName: string }[] };
    expect(metrics).toHaveLength((METRICS / GROUPS) * STEPS);
    expect(metrics.every((p) => p.logName.startsWith('g7/'))).toBe(true);
  }, 60_000);

  it('answers the statistics of all 20,000 metrics without delaying health', async () => {
    const r = await whileHealthPolled([`/api/runs/statistics?runId=${runId}`]);
    report('statistics of all metrics', r);
    const [read] = r.reads;
    expect(read?.status).toBe(200);
    const { metrics } = JSON.parse(read!.text) as { metrics: { count: number }[] };
    expect(metrics).toHaveLength(METRICS);
    expect(metrics.every((m) => m.count === STEPS)).toBe(true);
    expect(r.worstMs).toBeLessThan(HEALTH_BOUND_MS);
  }, 120_000);
});
