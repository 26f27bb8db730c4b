/**
 * Overload: 24 clients flood ingest with 24 MB bodies while 4 more send checked batches. With the write path
 * saturated the server must answer 503 with Retry-After instead of buffering bodies, its
 * memory must stay bounded, and every acknowledged write must be there afterwards.
 * STEPWISE_FLOOD_SECONDS sets the flood's length (8); STEPWISE_FLOOD_CONTROL=1 runs the same
 * flood with admission control effectively off, to measure what the bound prevents.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ingestHttp, pause } from '../helpers/http-client.js';
import { Ledger, type LogItem, type MetricPoint, newFindings, verifyUniqueWrites } from '../helpers/ledger.js';
import { buildDist, spawnServer, type SpawnedServer } from '../helpers/spawned-server.js';

const SECONDS = Number(process.env.STEPWISE_FLOOD_SECONDS ?? 8);
const CONTROL = process.env.STEPWISE_FLOOD_CONTROL === '1';
/** Clients re-sending one 24 MB log body (stored once: re-sent lines are deduplicated). */
const FLOODERS = 24;
/** Clients sending small, distinct metric batches that are checked point by point. */
const TRACKED = 4;
const PROJECT = 'flood';
const MB = 1024 * 1024;
const LIMITS: Record<string, string> = CONTROL
  ? { STEPWISE_INGEST_MAX_INFLIGHT: '1000000', STEPWISE_INGEST_MAX_INFLIGHT_BYTES: String(2 ** 40) }
  : { STEPWISE_INGEST_MAX_INFLIGHT: '8', STEPWISE_INGEST_MAX_INFLIGHT_BYTES: String(32 * MB) };
// One organization floods here, so it may use the whole budget (by default one organization
// gets half; fairness between organizations is test/e2e/slow-bodies.test.ts).
LIMITS.STEPWISE_INGEST_ORG_MAX_INFLIGHT = LIMITS.STEPWISE_INGEST_MAX_INFLIGHT!;
LIMITS.STEPWISE_INGEST_ORG_MAX_INFLIGHT_BYTES = LIMITS.STEPWISE_INGEST_MAX_INFLIGHT_BYTES!;
/**
 * Peak RSS growth allowed over the warmed-up server with at most 32 MB of bodies admitted
 * (one flood body, or small ones). Each admitted byte lives several times over (buffer,
 * string, parsed lines, the copy handed to the series writer thread, SQLite's page caches)
 * and both V8 heaps return freed memory lazily; measured ~370-420 MB here, against ~1.5 GB
 * for the same flood with admission off (STEPWISE_FLOOD_CONTROL=1), which grows with the
 * number of clients.
 */
const GROWTH_BOUND_MB = 640;

let server: SpawnedServer;
beforeAll(async () => {
  await buildDist();
  server = await spawnServer([], { env: LIMITS });
}, 300_000);
afterAll(async () => {
  await server?.stop();
});

/** A figure of /proc/<pid>/status in MB (VmRSS now, VmHWM the peak). */
const memoryMb = (field: 'VmRSS' | 'VmHWM'): number =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync(`/proc/${server.pid}/status`, 'utf8'))![1]) / 1024;

const ledger = new Ledger();
const counts = { sent: 0, refused503: 0, withoutRetryAfter: 0, other: 0 };

/**
 * Sends `body` until acknowledged or the deadline passes, waiting Retry-After after each
 * 503; returns the final status (undefined: no answer).
 */
async function sendWithRetry(
  kind: 'metrics' | 'logs',
  runId: number,
  body: string,
  deadline: number,
): Promise<number | undefined> {
  for (;;) {
    counts.sent++;
    const res = await ingestHttp(server.baseUrl, server.key, kind, runId, PROJECT, body, 120_000).catch(
      () => undefined,
    );
    if (res?.status !== 503) {
      if (res !== undefined && res.status !== 200) counts.other++;
      return res?.status;
    }
    counts.refused503++;
    const wait = Number(res.headers.get('retry-after'));
    if (!(wait > 0)) counts.withoutRetryAfter++;
    if (Date.now() + wait * 1000 >= deadline) return 503;
    await pause(wait * 1000);
  }
}

const outcome = (status: number | undefined) =>
  status === 200 ? 'acked' : status === undefined ? 'unknown' : ('refused' as const);

/** One 24 MB body of 300 log lines of 80 kB, the same every time. */
function floodBody(): { body: string; items: LogItem[] } {
  const items: LogItem[] = [];
  for (let line = 1; line <= 300; line++) items.push({ lineNumber: line, message: `${line} ${'m'.repeat(80_000)}` });
  const body = items
    .map((l) => JSON.stringify({ time: 2, message: l.message, lineNumber: l.lineNumber, logType: 'INFO' }))
    .join('\n');
  return { body, items };
}

async function flooder(runId: number, flood: { body: string; items: LogItem[] }, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    const status = await sendWithRetry('logs', runId, flood.body, deadline);
    // Every flood request carries the same lines: one that gave up is not evidence of anything.
    if (status !== 503) ledger.track(ledger.logs, runId, flood.items).outcome = outcome(status);
  }
}

/** Distinct batches of 500 steps x 4 metrics until the deadline. */
async function tracked(runId: number, deadline: number): Promise<void> {
  for (let step = 0; Date.now() < deadline; step += 500) {
    const points: MetricPoint[] = [];
    const lines: string[] = [];
    for (let s = step; s < step + 500; s++) {
      const data: Record<string, number> = {};
      for (const name of ['t/a', 't/b', 't/c', 't/d']) {
        data[name] = ((s * 31) % 101) / 7 + name.charCodeAt(2);
        points.push({ name, step: s, time: 1, value: data[name]! });
      }
      lines.push(JSON.stringify({ time: 1, step: s, data }));
    }
    const status = await sendWithRetry('metrics', runId, lines.join('\n'), deadline);
    ledger.track(ledger.metrics, runId, points).outcome = outcome(status);
  }
}

describe('overload', () => {
  it('answers 503 with Retry-After under a flood, keeps memory bounded, and loses no acknowledged write', async () => {
    const runs: number[] = [];
    for (let i = 0; i < TRACKED + 1; i++) {
      const res = await http(server.baseUrl, 'POST', '/api/runs/create', {
        key: server.key,
        json: { runName: `flood-${i}`, projectName: PROJECT },
      });
      runs.push(res.body.runId as number);
    }
    const flood = floodBody();
    await pause(500);
    const baseline = memoryMb('VmRSS');
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, memoryMb('VmRSS'))), 25);
    const deadline = Date.now() + SECONDS * 1000;
    await Promise.all([
      ...Array.from({ length: FLOODERS }, () => flooder(runs[0]!, flood, deadline)),
      ...runs.slice(1).map((runId) => tracked(runId, deadline)),
    ]);
    clearInterval(sampler);
    peak = Math.max(peak, memoryMb('VmHWM'));
    const health = await http(server.baseUrl, 'GET', '/api/health');
    const findings = newFindings();
    await verifyUniqueWrites({ base: server.baseUrl, key: server.key, project: PROJECT }, ledger, findings);
    const tally = ledger.tally();
    console.log(
      `[reliability] overload${CONTROL ? ' (control: no admission limit)' : ''}: clients=${FLOODERS}+${TRACKED} ` +
        `seconds=${SECONDS} ` +
        `requests=${counts.sent} answered503=${counts.refused503} acked=${tally.acked} gaveUp=${tally.refused} ` +
        `unknown=${tally.unknown} baselineMB=${baseline.toFixed(0)} peakMB=${peak.toFixed(0)} ` +
        `growthMB=${(peak - baseline).toFixed(0)} ackedItems=${findings.ackedItems} ackedLost=${findings.ackedLost} ` +
        `halfWritten=${findings.halfWritten} summaryMismatches=${findings.summaryMismatches}`,
    );
    expect(health.status).toBe(200);
    expect(findings.problems.slice(0, 20)).toEqual([]);
    expect(counts.other).toBe(0);
    expect(tally.unknown).toBe(0);
    expect(counts.withoutRetryAfter).toBe(0);
    if (!CONTROL) {
      expect(counts.refused503).toBeGreaterThan(0);
      expect(ledger.metrics.filter((w) => w.outcome === 'acked').length).toBeGreaterThan(0);
      expect(peak - baseline).toBeLessThan(GROWTH_BOUND_MB);
    }
  }, 300_000);
});
