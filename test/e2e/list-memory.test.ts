/**
 * Large answers do not take the server down (issue 25, item 2): 60 runs with 8 MB configs,
 * where ten concurrent `GET /api/runs/list?limit=60` used to answer 480 MB each and end in
 * `FATAL ERROR: Reached heap limit` (as did leaderboards of limit=60 and comparisons of the 60 runs). Each phase runs ten (or eight) requests at once while
 * /api/health is polled, and the server's RSS is sampled (VmRSS every 25 ms, and VmHWM with
 * the peak reset before the phase): it must stay alive with RSS growth under 500 MB.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ingestHttp } from '../helpers/http-client.js';
import { buildDist, spawnServer, type SpawnedServer } from '../helpers/spawned-server.js';

const RUNS = 60;
const CONFIG_MB = 8;
const PROJECT = 'big-configs';
const GROWTH_BOUND_MB = 500;
const LOG_NAMES = 100_000;

let server: SpawnedServer;
let wideRunId: number;
const bigRunIds: number[] = [];

/** A config of about 8 MB whose small keys are lr and batch_size. */
const bigConfig = (i: number) => ({
  lr: i / 1000,
  batch_size: 32 + i,
  blob: `${i % 10}`.repeat(CONFIG_MB * 1024 * 1024),
});

beforeAll(async () => {
  await buildDist();
  server = await spawnServer();
  const started = performance.now();
  for (let i = 0; i < RUNS; i++) {
    const res = await http(server.baseUrl, 'POST', '/api/runs/create', {
      key: server.key,
      json: { runName: `big-${i}`, projectName: PROJECT, config: JSON.stringify(bigConfig(i)) },
      timeoutMs: 60_000,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const runId = res.body.runId as number;
    bigRunIds.push(runId);
    const line = JSON.stringify({ time: 1_700_000_000_000, step: 0, data: { loss: i } });
    expect((await ingestHttp(server.baseUrl, server.key, 'metrics', runId, PROJECT, `${line}\n`)).status).toBe(200);
  }
  const wide = await http(server.baseUrl, 'POST', '/api/runs/create', {
    key: server.key,
    json: { runName: 'wide', projectName: 'wide' },
  });
  wideRunId = wide.body.runId as number;
  for (let from = 0; from < LOG_NAMES; from += 10_000) {
    const logName = Array.from({ length: 10_000 }, (_, i) => `group${(from + i) % 100}/metric_${from + i}`);
    const res = await http(server.baseUrl, 'POST', '/api/runs/logName/add', {
      key: server.key,
      json: { runId: wideRunId, logName, logType: 'METRIC' },
      timeoutMs: 60_000,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  console.log(
    `stored ${RUNS} runs with ${CONFIG_MB} MB configs and a run of ${LOG_NAMES} log names in ${(performance.now() - started).toFixed(0)} ms`,
  );
}, 600_000);
afterAll(async () => {
  await server?.stop();
});

/** A figure of /proc/<pid>/status in MB (VmRSS now, VmHWM the peak since the last reset). */
const memoryMb = (field: 'VmRSS' | 'VmHWM'): number =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync(`/proc/${server.pid}/status`, 'utf8'))![1]) / 1024;

interface Read {
  status: number;
  bytes: number;
  /** The first and last 100 characters of the answer. */
  head: string;
  tail: string;
}

/** A GET whose answer is counted as it arrives, keeping only its ends (ten 48 MB answers would crowd this process). */
async function read(url: string): Promise<Read> {
  const res = await fetch(`${server.baseUrl}${url}`, {
    headers: { authorization: `Bearer ${server.key}` },
    signal: AbortSignal.timeout(300_000),
  });
  let bytes = 0;
  let head = '';
  let tail = '';
  const decoder = new TextDecoder();
  for await (const chunk of res.body!) {
    bytes += chunk.length;
    const text = decoder.decode(chunk, { stream: true });
    if (head.length < 100) head += text.slice(0, 100 - head.length);
    tail = (tail + text).slice(-100);
  }
  return { status: res.status, bytes, head, tail };
}

/**
 * Runs the reads at once while polling /api/health and sampling the server's RSS; returns the
 * reads, the RSS growth over the settled baseline and the slowest health answer.
 */
async function measured(urls: readonly string[]): Promise<{ reads: Read[]; growthMb: number; healthWorstMs: number }> {
  await new Promise((r) => setTimeout(r, 500));
  const baseline = memoryMb('VmRSS');
  fs.writeFileSync(`/proc/${server.pid}/clear_refs`, '5'); // resets VmHWM to the current RSS
  let peak = baseline;
  const sample = () => {
    try {
      peak = Math.max(peak, memoryMb('VmRSS'));
    } catch {
      peak = Number.POSITIVE_INFINITY; // the server is gone (the old code died at its heap limit)
    }
  };
  const sampler = setInterval(sample, 25);
  let done = false;
  let healthWorstMs = 0;
  const poller = (async () => {
    while (!done) {
      const started = performance.now();
      await (await fetch(`${server.baseUrl}/api/health`, { signal: AbortSignal.timeout(60_000) })).arrayBuffer();
      healthWorstMs = Math.max(healthWorstMs, performance.now() - started);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const reads = await Promise.all(urls.map(read)).finally(() => (done = true));
  await poller;
  clearInterval(sampler);
  sample();
  if (Number.isFinite(peak)) peak = Math.max(peak, memoryMb('VmHWM'));
  return { reads, growthMb: peak - baseline, healthWorstMs };
}

function report(what: string, r: { reads: Read[]; growthMb: number; healthWorstMs: number }): void {
  const statuses = [...new Set(r.reads.map((x) => x.status))].join('/');
  const mb = Math.max(...r.reads.map((x) => x.bytes)) / 1e6;
  console.log(
    `[reliability] ${what}: ${r.reads.length} at once answered ${statuses}, largest ${mb.toFixed(2)} MB, ` +
      `RSS growth ${r.growthMb.toFixed(0)} MB, health worst ${r.healthWorstMs.toFixed(0)} ms`,
  );
}

const times = (n: number, url: string): string[] => Array.from({ length: n }, () => url);

/** Every read was refused as too large, the server still answers health, and RSS grew less than the bound. */
async function expectRefused(r: { reads: Read[]; growthMb: number }): Promise<void> {
  for (const x of r.reads) {
    expect(x.status).toBe(400);
    expect(x.tail).toContain('"code":"RESULT_TOO_LARGE"');
  }
  expect((await http(server.baseUrl, 'GET', '/api/health')).status).toBe(200);
  expect(r.growthMb).toBeLessThan(GROWTH_BOUND_MB);
}

/** Every read answered six whole configs in full, between `head` and `"total":60`, and RSS grew less than the bound. */
function expectSixConfigs(r: { reads: Read[]; growthMb: number }, head: RegExp): void {
  for (const x of r.reads) {
    expect(x.status).toBe(200);
    expect(x.bytes).toBeGreaterThan(6 * CONFIG_MB * 1024 * 1024);
    expect(x.head).toMatch(head);
    expect(x.tail).toMatch(/\}\],"total":60\}$/);
  }
  expect(r.growthMb).toBeLessThan(GROWTH_BOUND_MB);
}

describe(`ten concurrent lists over ${RUNS} runs with ${CONFIG_MB} MB configs`, () => {
  it('refuses limit=60 (480 MB) with RESULT_TOO_LARGE, staying alive with RSS growth under 500 MB', async () => {
    const r = await measured(times(10, `/api/runs/list?projectName=${PROJECT}&limit=60`));
    report('list limit=60 (480 MB of configs)', r);
    await expectRefused(r);
  }, 300_000);

  it('streams ten answers of six whole configs (50 MB each) with RSS growth under 500 MB', async () => {
    const r = await measured(times(10, `/api/runs/list?projectName=${PROJECT}&limit=6`));
    report('list limit=6 (50 MB answers)', r);
    expectSixConfigs(r, /^\{"runs":\[\{"id":/);
  }, 300_000);

  it('answers ten lists of configKeys=lr,batch_size for all 60 runs with RSS growth under 500 MB', async () => {
    const url = `/api/runs/list?projectName=${PROJECT}&limit=60&sort=createdAt&configKeys=lr,batch_size`;
    const r = await measured(times(10, url));
    report('list limit=60 configKeys=lr,batch_size', r);
    expect(r.reads.every((x) => x.status === 200 && x.bytes < 100_000)).toBe(true);
    const { body } = await http(server.baseUrl, 'GET', url, { key: server.key, timeoutMs: 120_000 });
    const configs = (body.runs as { config: unknown }[]).map((row) => row.config);
    expect(configs).toEqual(Array.from({ length: RUNS }, (_, i) => ({ lr: i / 1000, batch_size: 32 + i })));
    expect(r.growthMb).toBeLessThan(GROWTH_BOUND_MB);
    // Picking keys parses every 8 MB config: on the event loop that held health for 15-22 s.
    expect(r.healthWorstMs).toBeLessThan(2000);
  }, 300_000);

  it('refuses configKeys=blob for all 60 runs (480 MB of picked values) with RESULT_TOO_LARGE', async () => {
    const url = `/api/runs/list?projectName=${PROJECT}&limit=60&configKeys=blob`;
    const r = await measured(times(2, url));
    report('list limit=60 configKeys=blob (480 MB picked)', r);
    for (const x of r.reads) {
      expect(x.status).toBe(400);
      expect(x.tail).toContain('"code":"RESULT_TOO_LARGE"');
    }
    expect((await http(server.baseUrl, 'GET', '/api/health')).status).toBe(200);
    expect(r.growthMb).toBeLessThan(GROWTH_BOUND_MB);
  }, 300_000);
});

describe(`ten concurrent leaderboards and comparisons over the ${RUNS} runs`, () => {
  it('refuses leaderboards of limit=60 and comparisons of 60 runIds, staying alive with RSS growth under 500 MB', async () => {
    const compare = `/api/runs/compare?projectName=${PROJECT}&logName=loss&runIds=${bigRunIds.join(',')}`;
    const r = await measured([
      ...times(5, `/api/runs/leaderboard?projectName=${PROJECT}&logName=loss&limit=60`),
      ...times(5, compare),
    ]);
    report('leaderboard limit=60 and compare of 60 runIds (480 MB of configs)', r);
    await expectRefused(r);
  }, 300_000);

  it('streams ten leaderboards of six whole configs (50 MB each) with RSS growth under 500 MB', async () => {
    const r = await measured(times(10, `/api/runs/leaderboard?projectName=${PROJECT}&logName=loss&limit=6`));
    report('leaderboard limit=6 (50 MB answers)', r);
    expectSixConfigs(
      r,
      /^\{"projectName":"big-configs","logName":"loss","aggregation":"LAST","direction":"ASC","runs":\[\{"r/,
    );
  }, 300_000);
});

describe(`details of a run with ${LOG_NAMES} log names (the cap)`, () => {
  it('answers eight at once in full with RSS growth under 500 MB', async () => {
    const r = await measured(times(8, `/api/runs/details/${wideRunId}`));
    report(`details with ${LOG_NAMES} log names`, r);
    for (const x of r.reads) {
      expect(x.status).toBe(200);
      expect(x.tail).toMatch(/"url":"[^"]+"\}$/);
    }
    const { body } = await http(server.baseUrl, 'GET', `/api/runs/details/${wideRunId}`, { key: server.key });
    expect((body.logNames as unknown[]).length).toBe(LOG_NAMES);
    expect(r.growthMb).toBeLessThan(GROWTH_BOUND_MB);
  }, 300_000);

  it('refuses one more log name with a 400 naming the cap', async () => {
    const res = await http(server.baseUrl, 'POST', '/api/runs/logName/add', {
      key: server.key,
      json: { runId: wideRunId, logName: ['one/more'], logType: 'METRIC' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(`at most ${LOG_NAMES} log names`);
  });
});
