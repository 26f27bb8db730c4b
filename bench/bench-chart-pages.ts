/**
 * The chart pages of the browser case of `npm run bench`: how long a person waits for every
 * chart of a page to be drawn, beside a blank page load measured in the same rounds.
 *
 * - The compare page of 12 runs × 10 metrics of 20,000 steps each (120 series).
 * - The project page of 100 runs × 4 metrics of 20,000 steps each, the table's rows charted
 *   beside it (skipped with a line while the project page draws no charts).
 *
 * "Drawn" is the charts' contract: every `figure` with `aria-busy` on the page says "false"
 * (MetricChart), at 1440×900, where the compare page's 10 charts are all near enough to the
 * screen to load (charts far below it wait to be scrolled to). Times are on the page clock
 * from navigation start, medians of 5 rounds after a warm-up that fills the browser's cache
 * of the app code.
 */
import type { Page } from 'playwright-core';
import { BenchClient, runPool } from './bench-http.js';
import { quantile } from './bench-stats.js';

const STEPS = 20_000;
const LINES_PER_REQUEST = 5_000;
const ROUNDS = 5;
const COMPARE_PROJECT = 'compare-bench';
const COMPARE_RUNS = 12;
const COMPARE_METRICS = [
  'train/loss',
  'train/acc',
  'train/lr',
  'train/grad_norm',
  'train/throughput',
  'val/loss',
  'val/acc',
  'val/f1',
  'val/precision',
  'val/recall',
];
const WORKSPACE_PROJECT = 'workspace-bench';
const WORKSPACE_RUNS = 100;
const WORKSPACE_METRICS = ['train/loss', 'train/acc', 'val/loss', 'val/acc'];
/** A desktop screen; every chart of the compare page is within the margin where charts load (useNearViewport). */
const VIEWPORT = { width: 1440, height: 900 };

const ms = (x: number) => `${x.toFixed(0)} ms`;
const median = (s: readonly number[]) => quantile(s, 0.5);

/** A training-like value of `metric` at `step` for the run's learning rate `lr` (a decay plus noise). */
function valueOf(metric: string, step: number, lr: number): number {
  const progress = 1 - Math.exp((-step * lr * 1000) / STEPS);
  const noise = (Math.random() - 0.5) * 0.05;
  if (metric.endsWith('loss')) return 2.5 * (1 - progress) + 0.1 + noise;
  if (metric.endsWith('/lr')) return lr * (1 - step / STEPS);
  if (metric.endsWith('grad_norm')) return 5 * (1 - progress) + 0.5 + noise * 10;
  if (metric.endsWith('throughput')) return 1200 + noise * 2000;
  return 0.5 + 0.45 * progress + noise;
}

/** NDJSON of steps [step0, step0 + lines) with every metric at each step. */
function body(step0: number, lines: number, metrics: readonly string[], lr: number): string {
  const out: string[] = [];
  for (let s = step0; s < step0 + lines; s++) {
    const data = metrics.map((m) => `"${m}": ${valueOf(m, s, lr)}`).join(', ');
    out.push(`{"time": ${1_700_000_000_000 + s * 100}, "step": ${s}, "data": {${data}}}`);
  }
  return out.join('\n');
}

/** Creates `runs` finished runs of `steps` steps × `metrics` in `project`; returns their ids. */
async function loadProject(
  api: BenchClient,
  project: string,
  runs: number,
  metrics: readonly string[],
  steps: number,
): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < runs; i++) {
    const lr = [1e-4, 3e-4, 1e-3][i % 3]!;
    const config = { lr, optimizer: i % 2 ? 'adamw' : 'sgd', seed: i };
    const run = await api.json<{ runId: number }>('POST', '/api/runs/create', {
      runName: `sweep-lr${lr}-${config.optimizer}-seed${i}`,
      projectName: project,
      config: JSON.stringify(config),
    });
    ids.push(run.runId);
    const parts = Math.ceil(steps / LINES_PER_REQUEST);
    await runPool(parts, 4, (p) =>
      api.ingest(
        'metrics',
        run.runId,
        project,
        body(p * LINES_PER_REQUEST, Math.min(LINES_PER_REQUEST, steps - p * LINES_PER_REQUEST), metrics, lr),
      ),
    );
    await api.json('POST', '/api/runs/status/update', { runId: run.runId, status: 'COMPLETED' });
  }
  return ids;
}

/** Loads both projects over `baseUrl` (`scale` shrinks the steps); returns the compare runs' ids and the steps. */
export async function loadChartProjects(
  baseUrl: string,
  key: string,
  scale: number,
  progress: (line: string) => void,
): Promise<{ ids: number[]; steps: number }> {
  const api = new BenchClient(baseUrl, key, 4);
  const steps = Math.max(10, Math.round(STEPS * scale));
  try {
    progress(`loading ${COMPARE_RUNS} runs × ${COMPARE_METRICS.length} metrics × ${steps} steps`);
    const ids = await loadProject(api, COMPARE_PROJECT, COMPARE_RUNS, COMPARE_METRICS, steps);
    progress(`loading ${WORKSPACE_RUNS} runs × ${WORKSPACE_METRICS.length} metrics × ${steps} steps`);
    await loadProject(api, WORKSPACE_PROJECT, WORKSPACE_RUNS, WORKSPACE_METRICS, steps);
    return { ids, steps };
  } finally {
    api.close();
  }
}

/** Page-clock ms from navigation start to when every chart was last seen drawn, and how many there were. */
async function timeAllDrawn(page: Page, url: string, minCharts: number): Promise<{ elapsed: number; charts: number }> {
  await page.goto(url);
  await page.waitForFunction((n) => allDrawnNow() >= n, minCharts, { timeout: 60_000, polling: 50 });
  await page.waitForLoadState('networkidle');
  const mark = await page.evaluate(() => ({ at: readyAt('allDrawn'), charts: allDrawnNow() }));
  if (mark.charts < minCharts) throw new Error(`${url}: charts busy again after the network went idle`);
  return { elapsed: mark.at, charts: mark.charts };
}

/** Page-clock ms from navigation start to the load event of a tiny JSON document on the same server. */
async function timeBlank(page: Page, baseUrl: string): Promise<number> {
  await page.goto(`${baseUrl}/api/health`);
  return page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    return nav.loadEventEnd;
  });
}

/** True when the project page of `url` shows at least one chart figure once its table is there. */
async function hasCharts(page: Page, url: string): Promise<boolean> {
  await page.goto(url);
  await page.getByRole('row').nth(1).waitFor({ timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  return (await page.locator('figure[aria-busy]').count()) > 0;
}

/**
 * Prints the compare page's and the project page's all-charts-drawn times beside the blank
 * page load, on a page already signed in to `org`.
 */
export async function benchChartPages(
  page: Page,
  input: { baseUrl: string; org: string; compareIds: readonly number[]; steps: number },
  log: (line: string) => void,
): Promise<void> {
  const projectUrl = (p: string) => `${input.baseUrl}/o/${input.org}/projects/${encodeURIComponent(p)}`;
  const compare = `${projectUrl(COMPARE_PROJECT)}/compare?runs=${input.compareIds.join(',')}`;
  const workspace = projectUrl(WORKSPACE_PROJECT);
  const before = page.viewportSize();
  await page.setViewportSize(VIEWPORT);
  try {
    const workspaceCharts = await hasCharts(page, workspace);
    await timeAllDrawn(page, compare, COMPARE_METRICS.length); // warm-up
    if (workspaceCharts) await timeAllDrawn(page, workspace, 1);
    const blank: number[] = [];
    const compared: number[] = [];
    const projected: number[] = [];
    let projectCharts = 0;
    for (let i = 0; i < ROUNDS; i++) {
      blank.push(await timeBlank(page, input.baseUrl));
      compared.push((await timeAllDrawn(page, compare, COMPARE_METRICS.length)).elapsed);
      if (workspaceCharts) {
        const round = await timeAllDrawn(page, workspace, 1);
        projected.push(round.elapsed);
        projectCharts = round.charts;
      }
    }
    const baseline = `baseline: blank page load (GET /api/health as a document) ${ms(median(blank))}`;
    const of = `median of ${ROUNDS}, page clock, ${VIEWPORT.width}×${VIEWPORT.height}`;
    log(
      `browser, compare page of ${COMPARE_RUNS} runs × ${COMPARE_METRICS.length} charts (${input.steps.toLocaleString('en-US')} steps each), every chart drawn (aria-busy=false): ` +
        `${ms(median(compared))} (${of}) | ${baseline}`,
    );
    if (workspaceCharts) {
      log(
        `browser, project page of ${WORKSPACE_RUNS} runs × ${WORKSPACE_METRICS.length} metrics (${input.steps.toLocaleString('en-US')} steps each), every chart drawn (${projectCharts} charts): ` +
          `${ms(median(projected))} (${of}) | ${baseline}`,
      );
    } else {
      log(
        `browser, project page of ${WORKSPACE_RUNS} runs × ${WORKSPACE_METRICS.length} metrics: skipped (the project page shows no charts) | ${baseline}`,
      );
    }
  } finally {
    if (before) await page.setViewportSize(before);
  }
}

declare function readyAt(name: string): number;
declare function allDrawnNow(): number;
