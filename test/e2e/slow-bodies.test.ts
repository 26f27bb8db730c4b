/**
 * Slow and stalled request bodies over real HTTP (issue 14, finding 2): five keep-alive
 * chunked ingest requests trickling a few bytes at a time, or four that declare a 64 MiB
 * body and stall, must not starve another organization's ingest, and are cut off with a 408
 * once they fall behind the body deadline (STEPWISE_BODY_TIMEOUT, short here).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ingestHttp } from '../helpers/http-client.js';
import { chunk, openSlowRequest, type SlowRequest } from '../helpers/slow-client.js';
import { buildDist, REPO_ROOT, spawnServer, type SpawnedServer } from '../helpers/spawned-server.js';

const TIMEOUT_S = 3;
/** How long after the deadline a cut may take (timer granularity, loaded 2-core machine). */
const SLACK_MS = 2500;
/** "Promptly": another organization's ingest is answered within this long. */
const PROMPT_MS = 1500;

let server: SpawnedServer;
let attackerRun: number;
let other: { key: string; runId: number };

async function createRun(key: string, projectName: string): Promise<number> {
  const res = await http(server.baseUrl, 'POST', '/api/runs/create', { key, json: { runName: 'r', projectName } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.runId as number;
}

beforeAll(async () => {
  await buildDist();
  server = await spawnServer([], { env: { STEPWISE_BODY_TIMEOUT: `${TIMEOUT_S}s` } });
  const { stdout } = await promisify(execFile)(process.execPath, [
    path.join(REPO_ROOT, 'bin/stepwise.js'),
    'keys',
    'create',
    '--org',
    'bystander',
    '--data',
    server.dataDir,
  ]);
  const key = stdout.trim().split('\n').pop()!.trim();
  attackerRun = await createRun(server.key, 'slow');
  other = { key, runId: await createRun(key, 'steady') };
}, 300_000);
afterAll(async () => {
  await server?.stop();
});

const ingestHeaders = (extra: Record<string, string>) => ({
  authorization: `Bearer ${server.key}`,
  'content-type': 'application/x-ndjson',
  'x-run-id': String(attackerRun),
  'x-project-name': 'slow',
  ...extra,
});

/** The other organization's ingest while the slow requests are open: its status and latency. */
async function bystanderIngest(step: number): Promise<{ status: number; ms: number }> {
  const started = Date.now();
  const line = JSON.stringify({ time: 1, step, data: { 'b/loss': step } });
  const res = await ingestHttp(server.baseUrl, other.key, 'metrics', other.runId, 'steady', line, 10_000);
  return { status: res.status, ms: Date.now() - started };
}

/** Waits for every slow request to end; the trickle timers stop with them. */
async function settle(slow: SlowRequest[], timers: NodeJS.Timeout[]) {
  const outcomes = await Promise.all(slow.map((s) => s.outcome));
  timers.forEach(clearInterval);
  return outcomes;
}

describe('slow request bodies', () => {
  it('five trickling chunked ingest bodies leave another organization served promptly and are cut with 408 after the deadline', async () => {
    const slow = Array.from({ length: 5 }, () =>
      openSlowRequest(server.port, 'POST', '/ingest/metrics', ingestHeaders({ 'transfer-encoding': 'chunked' })),
    );
    // 3 bytes every 500 ms: far below the minimum rate, never finishing.
    const timers = slow.map((s) => setInterval(() => s.write(chunk('{"t')), 500));
    await new Promise((r) => setTimeout(r, 800));
    const during = [await bystanderIngest(0), await bystanderIngest(1)];
    const stillOpen = slow.filter((s) => s.open()).length;
    const outcomes = await settle(slow, timers);
    console.log(
      `[reliability] trickling bodies: open=${stillOpen} bystander=${during.map((d) => `${d.status}/${d.ms}ms`).join(',')} ` +
        `cut=${outcomes.map((o) => `${o.status}@${o.afterMs}ms`).join(',')} deadline=${TIMEOUT_S}s`,
    );
    expect(stillOpen).toBe(5);
    for (const d of during) {
      expect(d.status).toBe(200);
      expect(d.ms).toBeLessThan(PROMPT_MS);
    }
    for (const o of outcomes) {
      expect(o.status).toBe(408);
      expect(JSON.parse(o.body)).toMatchObject({ code: 'REQUEST_TIMEOUT', error: expect.any(String) });
      expect(o.afterMs).toBeGreaterThanOrEqual(TIMEOUT_S * 1000 - 100);
      expect(o.afterMs).toBeLessThan(TIMEOUT_S * 1000 + SLACK_MS);
    }
    expect((await bystanderIngest(2)).status).toBe(200);
  }, 60_000);

  it('four stalled bodies declaring 64 MiB leave another organization served promptly and end by the deadline', async () => {
    const slow = Array.from({ length: 4 }, () =>
      openSlowRequest(
        server.port,
        'POST',
        '/ingest/logs',
        ingestHeaders({ 'content-length': String(64 * 1024 * 1024) }),
      ),
    );
    slow.forEach((s) => s.write('{"time":1,'));
    await new Promise((r) => setTimeout(r, 800));
    const during = [await bystanderIngest(3), await bystanderIngest(4)];
    const outcomes = await settle(slow, []);
    console.log(
      `[reliability] stalled 64 MiB bodies: bystander=${during.map((d) => `${d.status}/${d.ms}ms`).join(',')} ` +
        `ended=${outcomes.map((o) => `${o.status}@${o.afterMs}ms`).join(',')} deadline=${TIMEOUT_S}s`,
    );
    for (const d of during) {
      expect(d.status).toBe(200);
      expect(d.ms).toBeLessThan(PROMPT_MS);
    }
    // One organization holds at most half the byte budget: two are admitted and cut at the deadline, two refused at once.
    expect(outcomes.map((o) => o.status).sort()).toEqual([408, 408, 503, 503]);
    for (const o of outcomes) expect(o.afterMs).toBeLessThan(TIMEOUT_S * 1000 + SLACK_MS);
  }, 60_000);
});
