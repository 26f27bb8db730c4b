/**
 * `npm run bench`: starts the real server on a temp data dir, loads it over HTTP on
 * loopback and prints one line per figure with the baseline measured in the same run.
 * BENCH_SCALE (default 1) shrinks the data sizes for a quick look; BENCH_ONLY=ingest stops
 * each engine's pass after the ingest figures; BENCH_ONLY=browser loads only what the
 * dashboard figures need and prints those (SQLite only); BENCH_ONLY=groups loads and prints
 * only the grouping figures (groupsPass, both engines; the full run prints them after each
 * engine's other figures); BENCH_ONLY=rules prints only the alert-rule ingest figure of each
 * engine; BENCH_ONLY=mcp loads the 1M-point series and prints only the MCP figure
 * (get_metric_history against GET /api/runs/metrics) of each engine; BENCH_ONLY=query loads
 * the 1M-point series and a run of 1,000 metrics and prints only the metrics query and
 * statistics figures of each engine. The same workload then
 * runs on PostgreSQL (see bench/postgres.ts) at BENCH_PG_SCALE (default: BENCH_SCALE).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BenchClient, runPool, timedPool } from './bench-http.js';
import { cpuMs, p50p95, quantile, rssMb, timeCalls } from './bench-stats.js';
import { openStores } from '../src/store/open-stores.js';
import { benchPostgres } from './postgres.js';
import { parseMetricLines } from '../src/ingest/lines.js';
import { benchRunSearch, loadSearchProject } from './bench-run-search.js';
import { benchBrowser, type BrowserBenchInput } from './bench-browser.js';
import { benchGroups } from './bench-groups.js';
import { benchAlertRules, PAIRS as RULE_PAIRS } from './bench-alert-rules.js';
import { benchMcp } from './bench-mcp.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
// PostgreSQL runs the same sizes as SQLite (the whole bench takes about 3.5 minutes); BENCH_PG_SCALE overrides.
const PG_SCALE = Number(process.env.BENCH_PG_SCALE ?? SCALE);
let scale = SCALE;
const KEY = 'bench-key-0123456789abcdef';
const n = (full: number) => Math.max(1, Math.round(full * scale));
const fmt = (x: number) => Math.round(x).toLocaleString('en-US');
const log = (line: string) => process.stdout.write(`${line}\n`);
const progress = (line: string) => process.stderr.write(`  … ${line}\n`);

async function waitHealthy(base: string, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error('server exited during start-up');
    try {
      const res = await fetch(`${base}/api/health`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function startServer(
  dataDir: string,
  port: number,
  extraArgs: readonly string[] = [],
): Promise<{ child: ChildProcess; startMs: number }> {
  const t0 = performance.now();
  const child = spawn(
    process.execPath,
    [
      // e.g. BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the server and its writer thread.
      ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
      path.join(ROOT, 'bin/stepwise.js'),
      'serve',
      '--port',
      String(port),
      '--data',
      dataDir,
      '--log-level',
      'warn',
      ...extraArgs,
    ],
    {
      env: { ...process.env, STEPWISE_BOOTSTRAP_KEY: KEY },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  await waitHealthy(`http://127.0.0.1:${port}`, child);
  return { child, startMs: performance.now() - t0 };
}

async function startBaseline(): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [path.join(ROOT, '.bench-dist/bench/baseline-server.js'), '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve) =>
    child.stdout!.once('data', (d: Buffer) => resolve(Number(String(d).trim()))),
  );
  return { child, port };
}

/** NDJSON body of `lines` lines from `step0`, each with `metrics` values (Python json style). */
function metricBody(step0: number, lines: number, metrics: number, name = 'm'): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const data: string[] = [];
    for (let m = 0; m < metrics; m++) data.push(`"${metrics === 1 ? name : `${name}${m}`}": ${Math.random()}`);
    out.push(`{"time": ${1_700_000_000_000 + step0 + i}, "step": ${step0 + i}, "data": {${data.join(', ')}}}`);
  }
  return out.join('\n');
}

/**
 * NDJSON body of 1,000 points: 99 lines of new steps from `step0` × 10 metrics, and 10 lines
 * each re-logging one metric at a random earlier step below `step0` with a later time (1%).
 */
function relogBody(step0: number): string {
  const out = metricBody(step0, 99, 10).split('\n');
  for (let m = 0; m < 10; m++) {
    const at = Math.floor(Math.random() * step0);
    const line = `{"time": ${1_800_000_000_000 + step0 + m}, "step": ${at}, "data": {"m${m}": ${Math.random()}}}`;
    out.splice(Math.floor(Math.random() * out.length), 0, line);
  }
  return out.join('\n');
}

/** Bytes the series store takes: the SQLite file and its WAL, or the PostgreSQL relations. */
async function seriesBytes(dataDir: string, url: string | undefined): Promise<number> {
  if (!url) {
    const files = fs.readdirSync(dataDir).filter((f) => f.startsWith('stepwise-series.db'));
    return files.reduce((sum, f) => sum + fs.statSync(path.join(dataDir, f)).size, 0);
  }
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const res = await client.query<{ n: string }>(
      "SELECT (pg_total_relation_size('metric_chunks') + pg_total_relation_size('series'))::text AS n",
    );
    return Number(res.rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

const freePort = () => 20000 + Math.floor(Math.random() * 20000);

/** Where one pass of the workload stores its data: the embedded default, or database URLs. */
interface Backend {
  label: string;
  /** The server's --database-url, and a second database for the raw-store baseline. */
  urls?: { server: string; raw: string };
}

async function main(): Promise<void> {
  log(
    `Stepwise benchmark — ${new Date().toISOString()} — ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, scale ${SCALE}`,
  );
  if (process.env.BENCH_ONLY === 'browser') {
    log('\n== Dashboard in Chromium (SQLite, BENCH_ONLY=browser) ==');
    await browserPass();
    return;
  }
  if (process.env.BENCH_ONLY === 'groups') {
    await groupsPasses();
    return;
  }
  const everything = process.env.BENCH_ONLY === undefined || process.env.BENCH_ONLY === '';
  log('\n== SQLite (embedded default) ==');
  await benchBackend({ label: 'SQLite' });
  if (everything) await groupsPass({ label: 'SQLite' });
  const pg = await benchPostgres();
  if (!pg) {
    log('\n(PostgreSQL skipped: BENCH_POSTGRES=0, or no server binaries and no BENCH_DATABASE_URL)');
    return;
  }
  try {
    scale = PG_SCALE;
    log(`\n== ${pg.label}, scale ${PG_SCALE} ==`);
    const urls = { server: pg.serverUrl, raw: pg.rawUrl };
    await benchBackend({ label: 'PostgreSQL', urls });
    if (everything) await groupsPass({ label: 'PostgreSQL', urls });
  } finally {
    await pg.stop();
  }
}

/** Prints ingest with 20 alert rules against ingest without, measured in alternating rounds. */
async function rulesFigure(api: BenchClient, pid: number): Promise<void> {
  const requests = Math.max(2, n(300));
  const r = await benchAlertRules(
    api,
    requests,
    (step0) => metricBody(step0, 100, 10),
    () => cpuMs(pid),
  );
  log(
    `ingest with 20 alert rules on the project: ${fmt(r.withRules)} points/s | baseline the same batches into a project without rules ${fmt(r.without)} points/s, ratio ${r.ratio.toFixed(3)} (target ≥ 0.95; median of ${RULE_PAIRS} pairs of rounds of ${fmt(requests * 1000)} points, ABBA; pairs ${quantile(r.pairs, 0).toFixed(3)}–${quantile(r.pairs, 1).toFixed(3)}) | server CPU ${r.cpuWith.toFixed(2)} µs a point with rules, ${r.cpuWithout.toFixed(2)} without`,
  );
}

async function benchBackend(backend: Backend): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-'));
  const port = freePort();
  const { child, startMs } = await startServer(
    dataDir,
    port,
    backend.urls ? ['--database-url', backend.urls.server] : [],
  );
  const api = new BenchClient(`http://127.0.0.1:${port}`, KEY, 4);
  try {
    await new Promise((r) => setTimeout(r, 1000));
    const health = await timeCalls(50, () => api.get('/api/health'));
    const floor = quantile(health, 0.5);
    log(
      `start-up: ${startMs.toFixed(0)} ms from process start to /api/health 200 | idle RSS ${rssMb(child.pid!).toFixed(1)} MB | HTTP floor (GET /api/health) ${p50p95(health)}`,
    );

    if (process.env.BENCH_ONLY === 'rules') return await rulesFigure(api, child.pid!);
    if (process.env.BENCH_ONLY === 'query') {
      const big = n(1_000_000);
      const bigRun = await loadBigRun(api, big);
      await metricsQueryFigure(api, bigRun.runId, big, floor);
      return await statisticsFigure(api, floor);
    }
    if (process.env.BENCH_ONLY === 'mcp') {
      const big = n(1_000_000);
      const bigRun = await loadBigRun(api, big);
      await benchMcp(api, { runId: bigRun.runId, logName: 'loss', points: big }, log);
      return;
    }

    // Ingest: 1,000 points per request (100 lines × 10 metrics), distinct steps, 4 connections.
    // The rate is the sustained one: the first 400 requests (a fresh server compiling its hot
    // paths, about a second) are timed and printed on their own, and the figure is the 1,600
    // after them. CPU is measured over those 1,600; peak RSS over all 2,000.
    const requests = Math.max(2, n(2000));
    const cold = Math.min(requests - 1, n(400));
    const bodies = Array.from({ length: requests }, (_, i) => metricBody(i * 100, 100, 10));
    const points = requests * 1000;
    const warmPoints = (requests - cold) * 1000;
    const run = await api.json<{ runId: number }>('POST', '/api/runs/create', {
      runName: 'ingest',
      projectName: 'bench',
    });
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(child.pid!))), 50);
    let cpu0 = 0;
    let clientCpu0 = process.cpuUsage();
    const times = await timedPool(
      requests,
      cold,
      (i) => api.ingest('metrics', run.runId, 'bench', bodies[i]!),
      () => {
        cpu0 = cpuMs(child.pid!);
        clientCpu0 = process.cpuUsage();
      },
    );
    const ingestS = times.warmS;
    const ingestCpu = cpuMs(child.pid!) - cpu0;
    const clientCpu = process.cpuUsage(clientCpu0);
    clearInterval(sampler);
    const base = await startBaseline();
    const bare = new BenchClient(`http://127.0.0.1:${base.port}`, KEY, 4);
    const bareS = (
      await timedPool(requests, cold, async (i) => void (await bare.request('POST', '/ingest/metrics', bodies[i]!)))
    ).warmS;
    bare.close();
    base.child.kill('SIGTERM');
    const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-store-'));
    const stores = await openStores({ dataDir: storeDir, databaseUrl: backend.urls?.raw });
    const parsed = bodies.map((b) =>
      parseMetricLines(b).flatMap((l) =>
        l.values.map((v) => ({ logName: v.logName, step: l.step, time: l.time, value: v.value })),
      ),
    );
    let t0 = performance.now();
    for (const batch of parsed) await stores.series.appendMetrics({ id: 1, projectId: 1 }, batch);
    const rawS = (performance.now() - t0) / 1000;
    await stores.close();
    fs.rmSync(storeDir, { recursive: true, force: true });
    log(
      `ingest: ${fmt(warmPoints / ingestS)} points/s sustained through POST /ingest/metrics (${fmt(warmPoints)} points after the first ${fmt(cold * 1000)}, 4 keep-alive connections, 1,000 points/request; the first ${fmt(cold * 1000)} from a fresh start: ${fmt((cold * 1000) / times.coldS)} points/s) | baseline bare node:http parse-only ${fmt(warmPoints / bareS)} points/s, ratio ${(bareS / ingestS).toFixed(2)} | raw store appendMetrics without HTTP ${fmt(points / rawS)} points/s`,
    );
    log(
      `server CPU during sustained ingest: ${fmt(ingestCpu)} ms for ${fmt(warmPoints)} points (${((ingestCpu * 1000) / warmPoints).toFixed(2)} µs a point, all threads; ${(ingestCpu / 10 / ingestS).toFixed(0)}% of one core over the phase) | the bench's own client ${fmt((clientCpu.user + clientCpu.system) / 1000)} ms`,
    );
    log(`memory: peak RSS during ingest ${peak.toFixed(1)} MB`);
    const bytes = await seriesBytes(dataDir, backend.urls?.server);
    log(
      `disk: ${fmt((bytes / points) * 1e6)} bytes per million points (series store after the ingest above, ${fmt(bytes)} bytes)`,
    );

    // The same shape with 1% of points re-logging scattered earlier steps (later time: each replaces a point).
    const relogs = n(1000);
    const relogBodies = Array.from({ length: relogs }, (_, i) => relogBody((requests + i) * 100));
    const relogCpu0 = cpuMs(child.pid!);
    t0 = performance.now();
    await runPool(relogs, 4, (i) => api.ingest('metrics', run.runId, 'bench', relogBodies[i]!));
    const relogS = (performance.now() - t0) / 1000;
    const relogCpu = cpuMs(child.pid!) - relogCpu0;
    log(
      `ingest with 1% re-logs of scattered earlier steps: ${fmt((relogs * 1000) / relogS)} points/s (${fmt(relogs * 1000)} points, 4 connections, 1,000 points/request, 10 of them re-logs) | baseline bare node:http parse-only ${fmt(warmPoints / bareS)} points/s | server CPU ${((relogCpu * 1000) / (relogs * 1000)).toFixed(2)} µs a point`,
    );
    await rulesFigure(api, child.pid!);
    if (process.env.BENCH_ONLY === 'ingest') return;

    // 1M-point metric: 100 requests × 10,000 lines of one metric.
    const big = n(1_000_000);
    const per = 10_000;
    const bigRun = await loadBigRun(api, big);
    await metricsQueryFigure(api, bigRun.runId, big, floor);
    await benchMcp(api, { runId: bigRun.runId, logName: 'loss', points: big }, log);

    // Fork create for a parent with 10 points and with the big series.
    const small = await loadSmallRun(api);
    const forkSmall = await timeCalls(20, () =>
      api.json('POST', '/api/runs/create', { runName: 'f', projectName: 'bench', forkRunId: small.runId, forkStep: 5 }),
    );
    const forkBig = await timeCalls(20, () =>
      api.json('POST', '/api/runs/create', {
        runName: 'f',
        projectName: 'bench',
        forkRunId: bigRun.runId,
        forkStep: Math.floor(big / 2),
      }),
    );
    log(
      `fork create: parent of 10 points ${p50p95(forkSmall)}; parent of ${fmt(big)} points ${p50p95(forkBig)} | HTTP floor p50 ${floor.toFixed(2)} ms`,
    );

    await statisticsFigure(api, floor);

    // Leaderboard over a project of 10,000 runs, each with the metric; compare of 100 runs.
    const runs = n(10_000);
    progress(`creating ${fmt(runs)} runs with a metric each`);
    const ids: number[] = [];
    await runPool(runs, 8, async (i) => {
      const r = await api.json<{ runId: number }>('POST', '/api/runs/create', {
        runName: `sweep-${i}`,
        projectName: 'sweep',
      });
      ids.push(r.runId);
      await api.ingest('metrics', r.runId, 'sweep', metricBody(0, 3, 1, 'acc'));
    });
    const boards: string[] = [];
    for (const agg of ['MIN', 'MAX', 'AVG', 'LAST', 'VARIANCE']) {
      const s = await timeCalls(20, () =>
        api.get(`/api/runs/leaderboard?projectName=sweep&logName=acc&aggregation=${agg}&direction=DESC`),
      );
      boards.push(`${agg} ${p50p95(s)}`);
    }
    log(`leaderboard over ${fmt(runs)} runs: ${boards.join('; ')}`);
    const hundred = ids.slice(0, 100).join(',');
    const cmp = await timeCalls(20, () => api.get(`/api/runs/compare?runIds=${hundred}&projectName=sweep&logName=acc`));
    log(`compare of 100 runs: ${p50p95(cmp)} | HTTP floor p50 ${floor.toFixed(2)} ms`);
    // The trash: the project's last 1,000 runs deleted in one call (RELIABILITY.md: within 2 s).
    const doomed = ids.slice(-1000);
    const deleteStarted = performance.now();
    await api.json('POST', '/api/runs/delete', { runIds: doomed });
    log(
      `delete of ${fmt(doomed.length)} runs in one call: ${fmt(performance.now() - deleteStarted)} ms (target ≤ 2,000)`,
    );

    // Run search over a project of 10,000 runs with a config and 5 metrics each (at BENCH_SCALE on both engines).
    const searchRuns = Math.max(1, Math.round(10_000 * SCALE));
    await benchRunSearch(api, searchRuns, log, progress);

    // The dashboard in Chromium over the 1M-point run and the run-search project (SQLite pass).
    if (!backend.urls) {
      progress('opening the dashboard in Chromium');
      await benchBrowser(browserInput(port, bigRun.runId, big, small.runId, searchRuns), log);
    }

    // Logs: a run with 1,000,000 lines; pages of 10,000 at the start and the end.
    const lines = n(1_000_000);
    progress(`loading ${fmt(lines)} console lines`);
    const logRun = await api.json<{ runId: number }>('POST', '/api/runs/create', {
      runName: 'logs',
      projectName: 'bench',
    });
    await runPool(Math.ceil(lines / per), 4, (i) => {
      const out: string[] = [];
      for (let j = 0; j < Math.min(per, lines - i * per); j++) {
        const k = i * per + j;
        out.push(
          `{"time": ${1_700_000_000_000 + k}, "message": "line ${k} of the training log", "lineNumber": ${k}, "logType": "INFO"}`,
        );
      }
      return api.ingest('logs', logRun.runId, 'bench', out.join('\n'));
    });
    const page = (offset: number) => `/api/runs/logs?runId=${logRun.runId}&limit=10000&offset=${offset}`;
    const lastOffset = Math.max(0, lines - 10_000);
    for (const offset of [0, lastOffset]) checkLogsPage((await api.get(page(offset))).text, offset, lines);
    const first = await timeCalls(10, () => api.get(page(0)));
    const last = await timeCalls(10, () => api.get(page(lastOffset)));
    const decoded = await timeCalls(10, async () => (await api.get(page(0))).text);
    log(
      `logs, 10,000-line page of a ${fmt(lines)}-line run: first page ${p50p95(first)}; last page ${p50p95(last)} | first page joined and decoded by the client too: ${p50p95(decoded)}`,
    );
  } finally {
    api.close();
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Prints the sampled read of the 1M-point series `loss` of `runId`: whole range and a 10% step window. */
async function metricsQueryFigure(api: BenchClient, runId: number, big: number, floor: number): Promise<void> {
  const whole = await timeCalls(20, () => api.get(`/api/runs/metrics?runId=${runId}&logName=loss&limit=2000`));
  const lo = Math.floor(big * 0.45);
  const hi = lo + Math.floor(big * 0.1) - 1;
  const windowed = await timeCalls(20, () =>
    api.get(`/api/runs/metrics?runId=${runId}&logName=loss&limit=2000&stepMin=${lo}&stepMax=${hi}`),
  );
  log(
    `metrics query, ${fmt(big)}-point series to 2,000 points: whole range ${p50p95(whole)}; 10% step window ${p50p95(windowed)} | HTTP floor p50 ${floor.toFixed(2)} ms`,
  );
}

/** Creates a run with 1,000 metrics of 10 points each in project `bench`; prints its statistics read. */
async function statisticsFigure(api: BenchClient, floor: number): Promise<void> {
  const wide = await api.json<{ runId: number }>('POST', '/api/runs/create', {
    runName: 'wide',
    projectName: 'bench',
  });
  await api.ingest('metrics', wide.runId, 'bench', metricBody(0, 10, 1000, 'metric'));
  const stats = await timeCalls(20, () => api.get(`/api/runs/statistics?runId=${wide.runId}&projectName=bench`));
  log(`statistics of a run with 1,000 metrics: ${p50p95(stats)} | HTTP floor p50 ${floor.toFixed(2)} ms`);
}

/** 100 requests × 10,000 lines of one metric `loss` in project `bench`. */
async function loadBigRun(api: BenchClient, big: number): Promise<{ runId: number }> {
  const per = 10_000;
  progress(`loading a ${fmt(big)}-point series`);
  const bigRun = await api.json<{ runId: number }>('POST', '/api/runs/create', {
    runName: 'big',
    projectName: 'bench',
  });
  await runPool(Math.ceil(big / per), 4, (i) =>
    api.ingest('metrics', bigRun.runId, 'bench', metricBody(i * per, Math.min(per, big - i * per), 1, 'loss')),
  );
  return bigRun;
}

/** A run of 10 points of `loss` in project `bench`. */
async function loadSmallRun(api: BenchClient): Promise<{ runId: number }> {
  const small = await api.json<{ runId: number }>('POST', '/api/runs/create', {
    runName: 'small',
    projectName: 'bench',
  });
  await api.ingest('metrics', small.runId, 'bench', metricBody(0, 10, 1, 'loss'));
  return small;
}

function browserInput(
  port: number,
  bigRunId: number,
  big: number,
  smallRunId: number,
  runs: number,
): BrowserBenchInput {
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    key: KEY,
    bigRunId,
    bigPoints: big,
    smallRunId,
    metric: 'loss',
    chartProject: 'bench',
    tableProject: 'search-bench',
    sortMetric: 'loss',
    runs,
    root: ROOT,
    scale: SCALE,
    progress,
  };
}

/** BENCH_ONLY=groups: the grouping figures on SQLite, then on PostgreSQL when it is there. */
async function groupsPasses(): Promise<void> {
  log('\n== SQLite (embedded default), BENCH_ONLY=groups ==');
  await groupsPass({ label: 'SQLite' });
  const pg = await benchPostgres();
  if (!pg) return;
  try {
    scale = PG_SCALE;
    log(`\n== ${pg.label}, scale ${PG_SCALE}, BENCH_ONLY=groups ==`);
    await groupsPass({ label: 'PostgreSQL', urls: { server: pg.serverUrl, raw: pg.rawUrl } });
  } finally {
    await pg.stop();
  }
}

/**
 * The grouping figures of one engine (issue 28): 100 runs × 100,000 steps in 6 groups (p50
 * target 100 ms on SQLite, 200 ms on PostgreSQL) and 1,000 runs × 10,000 steps in 10 groups
 * (300 ms), 1,000 buckets each, with the same-run baseline of one run's sampled metrics read.
 */
async function groupsPass(backend: Backend): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-'));
  const port = freePort();
  const { child } = await startServer(dataDir, port, backend.urls ? ['--database-url', backend.urls.server] : []);
  const api = new BenchClient(`http://127.0.0.1:${port}`, KEY, 4);
  try {
    const wide = { project: 'sweep-long', runs: n(100), steps: n(100_000), groups: 6 };
    await benchGroups(api, { ...wide, target: backend.urls ? 200 : 100 }, log, progress);
    await benchGroups(
      api,
      { project: 'sweep-many', runs: n(1000), steps: n(10_000), groups: 10, target: 300 },
      log,
      progress,
    );
  } finally {
    api.close();
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** BENCH_ONLY=browser: a SQLite server with only the browser figures' data, then those figures. */
async function browserPass(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-'));
  const port = freePort();
  const { child } = await startServer(dataDir, port);
  const api = new BenchClient(`http://127.0.0.1:${port}`, KEY, 4);
  try {
    const big = n(1_000_000);
    const bigRun = await loadBigRun(api, big);
    const small = await loadSmallRun(api);
    const searchRuns = Math.max(1, Math.round(10_000 * SCALE));
    progress(`creating ${fmt(searchRuns)} runs with a config and 5 metrics each`);
    await loadSearchProject(api, 'search-bench', searchRuns);
    await benchBrowser(browserInput(port, bigRun.runId, big, small.runId, searchRuns), log);
  } finally {
    api.close();
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`benchmark failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});

/** Throws unless the logs answer holds the bench's lines from `offset` on, in order, with the run's total. */
function checkLogsPage(text: string, offset: number, lines: number): void {
  const answer = JSON.parse(text) as { logs: { lineNumber: number; message: string }[]; total: number };
  const want = Math.min(10_000, lines - offset);
  const wrong = answer.logs.findIndex(
    (l, i) => l.lineNumber !== offset + i || l.message !== `line ${offset + i} of the training log`,
  );
  if (answer.total !== lines || answer.logs.length !== want || wrong !== -1) {
    throw new Error(
      `logs page at ${offset}: ${answer.logs.length} lines, total ${answer.total}, first wrong at ${wrong}`,
    );
  }
}
