/**
 * Bounded reads (issue 14, finding 3; issue 25, item 7): a run of 20,000 metrics × 50 steps,
 * stored by one ~24 MB ingest. Reading all of its metrics asks for 1,000,000 points, within
 * the default STEPWISE_READ_MAX_POINTS (2,000,000): four such reads at once are answered in
 * full, streamed. Restarted with a bound one point lower, the same reads are refused with 400
 * RESULT_TOO_LARGE naming logName/logGroup. None of them may hold the event loop: a
 * concurrent /api/health, polled in a loop while the reads run, must always answer within
 * 250 ms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ingestHttp } from '../helpers/http-client.js';
import {
  expectRefusedWhole,
  memoryMb,
  streamedGet,
  whileHealthPolled,
  type StreamedRead,
} from '../helpers/reads-under-load.js';
import { buildDist, spawnServer, type SpawnedServer } from '../helpers/spawned-server.js';

const METRICS = 20_000;
const STEPS = 50;
const GROUPS = 100;
const PROJECT = 'wide';
/** One point fewer than reading all metrics asks for (the restarted server's bound). */
const LOW_BOUND = METRICS * STEPS - 1;
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

/** GETs each url at once (streamed, counted), and waits at least minMs, while health is polled. */
const readAll = (urls: readonly string[], minMs = 0, keepText = false) =>
  whileHealthPolled(
    server.baseUrl,
    () => Promise.all(urls.map((url) => streamedGet(server.baseUrl, server.key, url, keepText))),
    minMs,
  );

function report(what: string, r: { result: StreamedRead[]; worstMs: number; polls: number }): void {
  const reads = r.result.map((x) => `${x.status} ${(x.bytes / 1e6).toFixed(2)} MB in ${x.ms.toFixed(0)} ms`);
  console.log(
    `${what}: ${reads.join('; ')} | health worst ${r.worstMs.toFixed(0)} ms over ${r.polls} polls | server peak RSS ${memoryMb(server.pid, 'VmHWM').toFixed(0)} MB`,
  );
}

describe('reads of a run with 20,000 metrics × 50 steps', () => {
  it('answers health within the bound while idle (the baseline of this machine)', async () => {
    const r = await readAll([], 2_000);
    report('idle', r);
    expect(r.worstMs).toBeLessThan(HEALTH_BOUND_MS);
  });

  it('answers a read of all its metrics (1,000,000 points) in full, four at once, without delaying health', async () => {
    const url = `/api/runs/metrics?runId=${runId}`;
    const r = await readAll([url, url, url, url]);
    report('all metrics ×4', r);
    for (const read of r.result) {
      expect(read.status, read.head).toBe(200);
      expect(read.points).toBe(METRICS * STEPS);
      expect(read.names).toBe(METRICS);
      expect(read.tail.endsWith(`}],"total":${METRICS * STEPS}}`), read.tail.slice(-80)).toBe(true);
    }
    expect(r.worstMs).toBeLessThan(HEALTH_BOUND_MS);
  }, 300_000);

  it('answers every metric at limit=4 (80,000 points at most) without delaying health', async () => {
    const r = await readAll([`/api/runs/metrics?runId=${runId}&limit=4`], 0, true);
    report('all metrics at limit=4', r);
    const [read] = r.result;
    expect(read?.status).toBe(200);
    const { metrics } = JSON.parse(read!.text) as { metrics: { logName: string; step: number }[] };
    expect(metrics.length).toBeLessThanOrEqual(METRICS * 4);
    expect(new Set(metrics.map((p) => p.logName)).size).toBe(METRICS);
    expect(metrics.filter((p) => p.logName === 'g0/m0').map((p) => p.step)[0]).toBe(0);
    expect(r.worstMs).toBeLessThan(HEALTH_BOUND_MS);
  }, 120_000);

  it('answers one logGroup in full: 200 metrics × 50 steps', async () => {
    const read = await streamedGet(server.baseUrl, server.key, `/api/runs/metrics?runId=${runId}&logGroup=g7`, true);
    expect(read.status).toBe(200);
    const { metrics } = JSON.parse(read.text) as { metrics: { logName: string }[] };
    expect(metrics).toHaveLength((METRICS / GROUPS) * STEPS);
    expect(metrics.every((p) => p.logName.startsWith('g7/'))).toBe(true);
  }, 60_000);

  it('answers the statistics of all 20,000 metrics without delaying health', async () => {
    const r = await readAll([`/api/runs/statistics?runId=${runId}`], 0, true);
    report('statistics of all metrics', r);
    const [read] = r.result;
    expect(read?.status).toBe(200);
    const { metrics } = JSON.parse(read!.text) as { metrics: { count: number }[] };
    expect(metrics).toHaveLength(METRICS);
    expect(metrics.every((m) => m.count === STEPS)).toBe(true);
    expect(r.worstMs).toBeLessThan(HEALTH_BOUND_MS);
  }, 120_000);
});

describe(`the same run, restarted with STEPWISE_READ_MAX_POINTS=${LOW_BOUND}`, () => {
  beforeAll(async () => {
    const { dataDir, key } = server;
    await server.stop({ keepData: true });
    server = await spawnServer([], { dataDir, key, env: { STEPWISE_READ_MAX_POINTS: String(LOW_BOUND) } });
  }, 120_000);

  it('refuses four reads of all its metrics at once with a 400 naming logName and logGroup, without delaying health', async () => {
    const url = `/api/runs/metrics?runId=${runId}`;
    const r = await readAll([url, url, url, url], 0, true);
    report('all metrics ×4 over the bound', r);
    for (const read of r.result) expectRefusedWhole(read, LOW_BOUND);
    expect(r.worstMs).toBeLessThan(HEALTH_BOUND_MS);
  }, 120_000);

  it('answers the read narrowed to stepMax=48 (980,000 points, every series cut) without delaying health', async () => {
    const r = await readAll([`/api/runs/metrics?runId=${runId}&stepMax=48`]);
    report('all metrics up to step 48', r);
    const [read] = r.result;
    expect(read?.status, read?.head).toBe(200);
    expect(read?.points).toBe(METRICS * (STEPS - 1));
    expect(r.worstMs).toBeLessThan(HEALTH_BOUND_MS);
  }, 120_000);
});
