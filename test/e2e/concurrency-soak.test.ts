/**
 * Concurrency soak: 32 clients mix creates (and externalId resumes), status writes, ingest
 * and reads on four shared runs for STEPWISE_SOAK_SECONDS (60). Every request must succeed
 * in time (no error, no deadlock); afterwards the status timelines obey the precedence and
 * collapse rules, racing terminal writes end in the highest one, and every series and
 * summary equals what the acknowledged writes imply (later time wins).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ingestHttp } from '../helpers/http-client.js';
import { checkSummaries, newFindings, readSeries } from '../helpers/ledger.js';
import { buildDist, spawnServer, type SpawnedServer } from '../helpers/spawned-server.js';

const SECONDS = Number(process.env.STEPWISE_SOAK_SECONDS ?? 60);
const CLIENTS = 32;
const SHARED = 4;
const PROJECT = 'soak';
const STEPS = 2000;
const STATUSES = ['RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED', 'TERMINATED'];
const RANK: Record<string, number> = { COMPLETED: 1, TERMINATED: 2, CANCELLED: 3, FAILED: 4 };

let server: SpawnedServer;
beforeAll(async () => {
  await buildDist();
  server = await spawnServer();
}, 300_000);
afterAll(async () => {
  await server?.stop();
});

let tick = 0;
const counts: Record<string, number> = {};
const failures: string[] = [];
/** Shared run id → logName → step → the acknowledged write with the latest time. */
const expected = new Map<number, Map<string, Map<number, { time: number; value: number }>>>();

/** One request that must answer 200 within 30 s; anything else is recorded as a failure. */
async function must(kind: string, send: () => Promise<{ status: number; body: Record<string, unknown> }>) {
  counts[kind] = (counts[kind] ?? 0) + 1;
  const res: { status: number; body: Record<string, unknown> } = await send().catch((err: Error) => ({
    status: 0,
    body: { error: err.message },
  }));
  if (res.status !== 200) failures.push(`${kind}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
  return res;
}

async function ingestShared(runId: number, client: number, random: () => number): Promise<void> {
  const base = Math.floor(random() * (STEPS - 20));
  const points: { step: number; time: number; value: number }[] = [];
  for (let step = base; step < base + 20; step++)
    points.push({ step, time: 1_700_000_000_000 + tick++, value: random() * 100 - 50 });
  const body = points
    .map((p) =>
      JSON.stringify({ time: p.time, step: p.step, data: { 'shared/loss': p.value, [`client/${client}`]: p.step } }),
    )
    .join('\n');
  const res = await must('ingest', () =>
    ingestHttp(server.baseUrl, server.key, 'metrics', runId, PROJECT, body, 30_000),
  );
  if (res.status !== 200) return;
  const byName = expected.get(runId)!;
  for (const p of points) {
    for (const [name, value] of [
      ['shared/loss', p.value],
      [`client/${client}`, p.step],
    ] as const) {
      const series = byName.get(name) ?? byName.set(name, new Map()).get(name)!;
      const old = series.get(p.step);
      if (!old || old.time < p.time) series.set(p.step, { time: p.time, value });
    }
  }
}

const READS = (id: number) => [
  `/api/runs/details/${id}`,
  `/api/runs/status/history?runId=${id}`,
  `/api/runs/statistics?runId=${id}&projectName=${PROJECT}`,
  `/api/runs/metrics?runId=${id}&logName=shared/loss&limit=100`,
  `/api/runs/leaderboard?projectName=${PROJECT}&logName=shared/loss`,
  `/api/runs/compare?runIds=${id}&projectName=${PROJECT}&logName=shared/loss`,
  `/api/runs/logs?runId=${id}&limit=50`,
];

/** One client: random operations until the deadline. */
async function client(i: number, runs: number[], deadline: number): Promise<void> {
  let seed = i * 7919 + 1;
  const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
  const key = server.key;
  for (let n = 0; Date.now() < deadline; n++) {
    const runId = runs[Math.floor(random() * SHARED)]!;
    const r = random();
    if (r < 0.35) await ingestShared(runId, i, random);
    else if (r < 0.45) {
      const lines = [0, 1, 2].map((k) =>
        JSON.stringify({ time: Date.now(), message: `c${i} ${n}`, lineNumber: i * 1e6 + n * 3 + k, logType: 'INFO' }),
      );
      await must('ingest-logs', () =>
        ingestHttp(server.baseUrl, key, 'logs', runId, PROJECT, lines.join('\n'), 30_000),
      );
    } else if (r < 0.6) {
      const status = STATUSES[Math.floor(random() * STATUSES.length)]!;
      await must('status', () =>
        http(server.baseUrl, 'POST', '/api/runs/status/update', { key, json: { runId, status }, timeoutMs: 30_000 }),
      );
    } else if (r < 0.65) {
      const ext = `shared-${runs.indexOf(runId)}`;
      const res = await must('resume', () =>
        http(server.baseUrl, 'POST', '/api/runs/create', {
          key,
          json: { runName: 'x', projectName: PROJECT, externalId: ext },
          timeoutMs: 30_000,
        }),
      );
      if (res.status === 200 && (res.body.runId !== runId || res.body.resumed !== true))
        failures.push(`resume of ${ext} gave ${JSON.stringify(res.body)}`);
    } else if (r < 0.7) {
      await must('create', () =>
        http(server.baseUrl, 'POST', '/api/runs/create', {
          key,
          json: { runName: `c${i}-${n}`, projectName: `soak-${i % 4}` },
          timeoutMs: 30_000,
        }),
      );
    } else {
      const urls = READS(runId);
      await must('read', () =>
        http(server.baseUrl, 'GET', urls[Math.floor(random() * urls.length)]!, { key, timeoutMs: 30_000 }),
      );
    }
  }
}

/** The timeline rules: a chain from null→RUNNING, no event without a change, no api write below a higher terminal status. */
function timelineProblems(
  runId: number,
  events: { fromStatus: string | null; toStatus: string; source: string }[],
): string[] {
  const problems: string[] = [];
  if (events[0]?.fromStatus !== null || events[0]?.toStatus !== 'RUNNING')
    problems.push(`run ${runId}: first event ${JSON.stringify(events[0])}`);
  events.forEach((e, k) => {
    if (k > 0 && e.fromStatus !== events[k - 1]!.toStatus)
      problems.push(`run ${runId}: event ${k} starts at ${e.fromStatus}, previous ended at ${events[k - 1]!.toStatus}`);
    if (e.fromStatus === e.toStatus) problems.push(`run ${runId}: event ${k} changes nothing (${e.toStatus})`);
    const from = RANK[e.fromStatus ?? ''];
    const to = RANK[e.toStatus];
    if (e.source === 'api' && from !== undefined && to !== undefined && to < from)
      problems.push(`run ${runId}: api moved ${e.fromStatus} down to ${e.toStatus}`);
  });
  return problems;
}

describe('32 concurrent clients on shared runs', () => {
  it(
    `run for ${SECONDS} s without an error or a stall, and leave exact summaries and lawful timelines`,
    async () => {
      const key = server.key;
      const created = await Promise.all(
        Array.from({ length: SHARED * 8 }, (_, k) =>
          http(server.baseUrl, 'POST', '/api/runs/create', {
            key,
            json: { runName: `shared-${k % SHARED}`, projectName: PROJECT, externalId: `shared-${k % SHARED}` },
          }),
        ),
      );
      const runs = Array.from(
        { length: SHARED },
        (_, s) => created.find((c, k) => k % SHARED === s)!.body.runId as number,
      );
      for (let s = 0; s < SHARED; s++) {
        const mine = created.filter((_, k) => k % SHARED === s);
        expect(new Set(mine.map((c) => c.body.runId)).size).toBe(1);
        expect(mine.filter((c) => c.body.resumed === false)).toHaveLength(1);
        expected.set(runs[s]!, new Map());
      }
      const deadline = Date.now() + SECONDS * 1000;
      await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i, runs, deadline)));

      // Racing terminal writes: 8 identical COMPLETED collapse into one event, then 7 COMPLETED and 1 FAILED end FAILED.
      for (const runId of runs) {
        const write = (status: string) =>
          http(server.baseUrl, 'POST', '/api/runs/status/update', { key, json: { runId, status } });
        await write('RUNNING');
        const history = async () =>
          (await http(server.baseUrl, 'GET', `/api/runs/status/history?runId=${runId}`, { key })).body.events as {
            fromStatus: string | null;
            toStatus: string;
            source: string;
          }[];
        const before = (await history()).length;
        await Promise.all(Array.from({ length: 8 }, () => write('COMPLETED')));
        expect((await history()).length).toBe(before + 1);
        await write('RUNNING');
        await Promise.all([...Array.from({ length: 7 }, () => write('COMPLETED')), write('FAILED')]);
        const details = await http(server.baseUrl, 'GET', `/api/runs/details/${runId}`, { key });
        expect(details.body.status).toBe('FAILED');
        failures.push(...timelineProblems(runId, await history()));
      }

      const findings = newFindings();
      const target = { base: server.baseUrl, key, project: PROJECT };
      let points = 0;
      for (const [runId, byName] of expected) {
        const stored = new Map<string, Map<number, { value: number | null; time: number }>>();
        for (const [name, want] of byName) {
          const got = await readSeries(target, runId, name, STEPS);
          stored.set(name, got);
          points += want.size;
          if (got.size !== want.size)
            failures.push(`run ${runId} ${name}: ${got.size} points stored, ${want.size} written`);
          for (const [step, w] of want) {
            const g = got.get(step);
            if (!g || g.value !== w.value || g.time !== w.time)
              failures.push(
                `run ${runId} ${name}@${step}: stored ${JSON.stringify(g)}, latest write ${JSON.stringify(w)}`,
              );
          }
        }
        await checkSummaries(target, runId, stored, findings);
      }
      const requests = Object.values(counts).reduce((a, b) => a + b, 0);
      console.log(
        `[reliability] concurrency: clients=${CLIENTS} seconds=${SECONDS} requests=${requests} ${JSON.stringify(counts)} ` +
          `failures=${failures.length} seriesPointsChecked=${points} summaryMismatches=${findings.summaryMismatches}`,
      );
      expect([...failures, ...findings.problems].slice(0, 20)).toEqual([]);
      expect(counts.ingest).toBeGreaterThan(SECONDS);
    },
    (SECONDS + 240) * 1000,
  );
});
