/**
 * The grouping case of `npm run bench` (issue 28): a project of `runs` runs of `steps` steps
 * of `loss` each, in `groups` groups by config.lr; GET /api/runs/groups/metrics with 1,000
 * buckets, and beside it the same-run baseline: one run's sampled GET /api/runs/metrics.
 */
import { type BenchClient, runPool } from './bench-http.js';
import { p50p95, quantile, timeCalls } from './bench-stats.js';

/** Lines per ingest request. */
const PER = 10_000;

/** A sweep's case: its size, and the p50 it must meet (ms). */
export interface GroupsCase {
  project: string;
  runs: number;
  steps: number;
  groups: number;
  target: number;
}

/** NDJSON of `loss` at steps [from, from + lines): a noisy decaying curve per run. */
function lossBody(from: number, lines: number, level: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const step = from + i;
    const v = level / Math.sqrt(1 + step / 100) + Math.random() * 0.01;
    out.push(`{"time": ${1_700_000_000_000 + step}, "step": ${step}, "data": {"loss": ${v}}}`);
  }
  return out.join('\n');
}

/** Creates the runs (config lr by group, seed) and ingests their points, 4 requests at a time; returns the run ids. */
async function loadSweep(api: BenchClient, c: GroupsCase, progress: (line: string) => void): Promise<number[]> {
  progress(
    `loading ${c.runs.toLocaleString('en-US')} runs × ${c.steps.toLocaleString('en-US')} steps in ${c.groups} groups`,
  );
  const ids: number[] = [];
  await runPool(c.runs, 8, async (i) => {
    const r = await api.json<{ runId: number }>('POST', '/api/runs/create', {
      runName: `seed-${i}`,
      projectName: c.project,
      config: JSON.stringify({ lr: 10 ** -(1 + (i % c.groups)), seed: i }),
    });
    ids[i] = r.runId;
  });
  const requests = c.runs * Math.ceil(c.steps / PER);
  const perRun = Math.ceil(c.steps / PER);
  await runPool(requests, 4, (k) => {
    const run = Math.floor(k / perRun);
    const from = (k % perRun) * PER;
    return api.ingest('metrics', ids[run]!, c.project, lossBody(from, Math.min(PER, c.steps - from), 1 + run / c.runs));
  });
  return ids;
}

/** Loads one case and prints its figures; returns the p50 of groups/metrics (ms). */
export async function benchGroups(
  api: BenchClient,
  c: GroupsCase,
  log: (line: string) => void,
  progress: (line: string) => void,
): Promise<number> {
  const ids = await loadSweep(api, c, progress);
  const url = `/api/runs/groups/metrics?projectName=${c.project}&groupBy=config.lr&logName=loss&limit=1000`;
  const check = JSON.parse((await api.get(url)).text) as { groups: { runCount: number; points: unknown[] }[] };
  const shape = check.groups.map((g) => `${g.runCount} runs/${g.points.length} buckets`).join(', ');
  const first = await timeCalls(1, () => api.get(url), 0);
  const grouped = await timeCalls(20, () => api.get(url));
  const runUrl = `/api/runs/metrics?runId=${ids[0]}&logName=loss&limit=2000`;
  const sampled = await timeCalls(20, () => api.get(runUrl));
  const p50 = quantile(grouped, 0.5);
  log(
    `groups/metrics, ${c.runs.toLocaleString('en-US')} runs × ${c.steps.toLocaleString('en-US')} steps in ${c.groups} groups, ` +
      `1,000 buckets: ${p50p95(grouped)} (target p50 <= ${c.target} ms: ${p50 <= c.target ? 'met' : 'MISSED'}; ` +
      `a call after the first: ${first[0]!.toFixed(2)} ms) [${shape}] | same-run baseline, one run's sampled ` +
      `GET /api/runs/metrics (limit 2000): ${p50p95(sampled)}, ratio ${(p50 / quantile(sampled, 0.5)).toFixed(1)}`,
  );
  return p50;
}
