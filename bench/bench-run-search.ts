/**
 * The run search case of `npm run bench`: a project of `runs` runs, each with a config and
 * 5 metrics; `GET /api/runs/list` with an $or over a config key and a metric, sorted by a
 * metric, 50 per page. Beside it, what bounds it: the same filter sorted by a run column,
 * the filter's config half and metric half alone, and a plain listing.
 */
import { type BenchClient, runPool } from './bench-http.js';
import { p50p95, timeCalls } from './bench-stats.js';

const METRICS = ['loss', 'acc', 'val_loss', 'val_acc', 'grad_norm'];
const LRS = [1e-4, 3e-4, 1e-3, 3e-3, 1e-2];

/** Creates the project's runs (8 at a time): a config and one line of 5 metrics each. */
export async function loadSearchProject(api: BenchClient, project: string, runs: number): Promise<void> {
  await runPool(runs, 8, async (i) => {
    const config = { lr: LRS[i % LRS.length], batch: 32 << (i % 3), optimizer: i % 2 ? 'adam' : 'sgd', seed: i };
    const r = await api.json<{ runId: number }>('POST', '/api/runs/create', {
      runName: `trial-${i}`,
      projectName: project,
      tags: [i % 10 === 0 ? 'baseline' : 'sweep'],
      config: JSON.stringify(config),
    });
    const data = METRICS.map((m) => `"${m}": ${Math.random()}`).join(', ');
    await api.ingest('metrics', r.runId, project, `{"time": 1700000000000, "step": 0, "data": {${data}}}`);
  });
}

/** Loads the project and prints one line of p50/p95 figures; returns the headline p50 (ms). */
export async function benchRunSearch(
  api: BenchClient,
  runs: number,
  log: (line: string) => void,
  progress: (line: string) => void,
): Promise<number> {
  const project = 'search-bench';
  progress(`creating ${runs.toLocaleString('en-US')} runs with a config and 5 metrics each`);
  await loadSearchProject(api, project, runs);
  const url = (filter: unknown, sort: string) =>
    `/api/runs/list?projectName=${project}&limit=50&sort=${encodeURIComponent(sort)}` +
    (filter === undefined ? '' : `&filter=${encodeURIComponent(JSON.stringify(filter))}`);
  const configHalf = { 'config.lr': { $lt: 1e-3 } };
  const metricHalf = { 'summary_metrics.acc': { $gt: 0.9 } };
  const both = { $or: [configHalf, metricHalf] };
  const cases: [string, string][] = [
    ['$or over config.lr and summary_metrics.acc, sorted by -summary_metrics.loss', url(both, '-summary_metrics.loss')],
    ['same filter sorted by -createdAt', url(both, '-createdAt')],
    ['config half alone, by -createdAt', url(configHalf, '-createdAt')],
    ['metric half alone, by -createdAt', url(metricHalf, '-createdAt')],
    ['no filter, sorted by -summary_metrics.loss', url(undefined, '-summary_metrics.loss')],
    ['no filter, by -createdAt', url(undefined, '-createdAt')],
  ];
  const figures: string[] = [];
  let headline = NaN;
  for (const [label, path] of cases) {
    const samples = await timeCalls(30, () => api.get(path));
    if (Number.isNaN(headline)) headline = [...samples].sort((a, b) => a - b)[Math.ceil(samples.length / 2) - 1]!;
    figures.push(`${label} ${p50p95(samples)}`);
  }
  log(`run search over ${runs.toLocaleString('en-US')} runs, 50 per page: ${figures.join('; ')}`);
  return headline;
}
