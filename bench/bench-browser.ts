/**
 * The browser case of `npm run bench` (SQLite pass only): Debian's Chromium, signed in to the
 * bench server, opens the dashboard's pages over data the bench already loaded and prints
 * how long a person waits, each beside a baseline measured in the same run.
 *
 * - A 1,000,000-point metric's chart: navigation to `aria-busy="false"` (median of 3), and the
 *   bytes of metric data the page downloaded for it. Baseline: the same page over a 10-point
 *   run (page, session and chart code cost without the data).
 * - A 10,000-run project's table: navigation to the first row, then a re-sort by a metric
 *   column to the new first row. Baseline: navigation to the projects page.
 * - The initial JavaScript of the app in KB gzip (the entry and what it preloads).
 * - The compare page and the project page with every chart drawn (bench/bench-chart-pages.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Page } from 'playwright-core';
import { launchChromium } from '../test/helpers/browser.js';
import { quantile } from './bench-stats.js';
import { benchChartPages, loadChartProjects } from './bench-chart-pages.js';

export interface BrowserBenchInput {
  baseUrl: string;
  key: string;
  /** The run with the big metric `metric` (1,000,000 points at scale 1). */
  bigRunId: number;
  bigPoints: number;
  /** A run of the same project with 10 points of `metric`. */
  smallRunId: number;
  metric: string;
  /** The project of both runs. */
  chartProject: string;
  /** A project of many runs, each with the metric `sortMetric`. */
  tableProject: string;
  sortMetric: string;
  runs: number;
  /** The repository root (for ui/dist). */
  root: string;
  /** BENCH_SCALE: shrinks the chart pages' steps. */
  scale: number;
  progress: (line: string) => void;
}

const ms = (x: number) => `${x.toFixed(0)} ms`;
const median = (s: readonly number[]) => quantile(s, 0.5);

/** Prints the browser figures; skipped with a line when Chromium is missing. */
export async function benchBrowser(input: BrowserBenchInput, log: (line: string) => void): Promise<void> {
  const chromium = process.env.STEPWISE_CHROMIUM ?? '/usr/bin/chromium';
  if (!fs.existsSync(chromium)) {
    log(`browser: skipped (no Chromium at ${chromium})`);
    return;
  }
  log(`initial JavaScript: ${initialJsKb(path.join(input.root, 'ui/dist')).toFixed(1)} KB gzip`);
  const charted = await loadChartProjects(input.baseUrl, input.key, input.scale, input.progress);
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(PAGE_CLOCK);
    const page = await context.newPage();
    const session = await signInByApi(page, input);
    const runPage = async (runId: number) => {
      const sqid = await sqidOf(page, runId);
      return `${input.baseUrl}/o/${session}/projects/${encodeURIComponent(input.chartProject)}/${sqid}?tab=charts`;
    };
    const big = await runPage(input.bigRunId);
    const small = await runPage(input.smallRunId);
    const figure = `figure[aria-label="${input.metric}"][aria-busy="false"]`;
    const chart = async (url: string) => {
      let bytes = 0;
      const count = (res: import('playwright-core').Response) => {
        if (res.url().includes('/api/runs/metrics') || res.url().includes('/api/runs/series'))
          void res
            .body()
            .then((b) => (bytes += b.length))
            .catch(() => {});
      };
      page.on('response', count);
      await page.goto(url);
      await page.locator(figure).waitFor({ timeout: 60_000 });
      // The moment the page itself saw the chart drawn, from its navigation start.
      const elapsed = await page.evaluate((label) => readyAt(label), `fig:${input.metric}`);
      await page.waitForLoadState('networkidle');
      page.off('response', count);
      return { elapsed, bytes };
    };
    await chart(small); // warm the browser cache of the app's code, as a returning user has it
    const bigRuns = [await chart(big), await chart(big), await chart(big)];
    const smallRuns = [await chart(small), await chart(small), await chart(small)];
    log(
      `browser, chart of a ${input.bigPoints.toLocaleString('en-US')}-point metric ready (aria-busy=false, page clock): median ${ms(median(bigRuns.map((r) => r.elapsed)))} of 3, ` +
        `${(Math.max(...bigRuns.map((r) => r.bytes)) / 1e6).toFixed(2)} MB of metric data | baseline: same page over 10 points ` +
        `${ms(median(smallRuns.map((r) => r.elapsed)))}`,
    );

    const projects = `${input.baseUrl}/o/${session}/projects`;
    const table = `${projects}/${encodeURIComponent(input.tableProject)}`;
    const projectsMs: number[] = [];
    const tableMs: number[] = [];
    const sortMs: number[] = [];
    for (let i = 0; i < 3; i++) {
      await page.goto(projects);
      await page.getByRole('link', { name: input.tableProject }).first().waitFor({ timeout: 60_000 });
      projectsMs.push(await page.evaluate((name) => readyAt(`link:${name}`), input.tableProject));
      await page.goto(`${table}?col=${encodeURIComponent(`metric:last:${input.sortMetric}`)}`);
      await page.getByRole('row').nth(1).waitFor({ timeout: 60_000 });
      tableMs.push(await page.evaluate(() => readyAt('row')));
      // Click the metric's header and wait for a new first row, timed inside the page.
      sortMs.push(await page.evaluate((metric) => timeSort(metric), input.sortMetric));
    }
    log(
      `browser, ${input.runs.toLocaleString('en-US')}-run table (page clock): first rows ${ms(median(tableMs))}, re-sort by ${input.sortMetric} ` +
        `${ms(median(sortMs))} (medians of 3) | baseline: projects page ${ms(median(projectsMs))}`,
    );
    await benchChartPages(
      page,
      { baseUrl: input.baseUrl, org: session, compareIds: charted.ids, steps: charted.steps },
      log,
    );
    await context.close();
  } finally {
    await browser.close();
  }
}

/**
 * Runs in every page before its own scripts: notes (page clock, ms since navigation start)
 * when a chart first reports `aria-busy="false"` (`fig:<label>`), when a table's first row
 * with a link appears (`row`) and when a link with a text appears (`link:<text>`);
 * `readyAt(name)` answers one. `allDrawn` is the last time every chart figure on the page
 * (`figure[aria-busy]`) turned `aria-busy="false"`; `allDrawnNow()` answers how many charts
 * there are while all are drawn, else 0.
 * `timeSort(label)` clicks the header button named `label…` and resolves with the ms until
 * the first data row shows another run. Timing inside the page leaves out the test driver's
 * polling.
 */
const PAGE_CLOCK = `
  window.__marks = {};
  const note = (name) => { if (!(name in window.__marks)) window.__marks[name] = performance.now(); };
  window.allDrawnNow = () => {
    const figs = document.querySelectorAll('figure[aria-busy]');
    for (const f of figs) if (f.getAttribute('aria-busy') !== 'false') return 0;
    return figs.length;
  };
  let drawn = 0;
  new MutationObserver(() => {
    const now = window.allDrawnNow();
    if (now > 0 && drawn === 0) window.__marks.allDrawn = performance.now();
    drawn = now;
    for (const f of document.querySelectorAll('figure[aria-busy="false"]')) note('fig:' + f.getAttribute('aria-label'));
    if (document.querySelector('tbody tr a, [role="row"] a')) note('row');
    for (const a of document.querySelectorAll('main a')) note('link:' + a.textContent.trim());
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-busy'] });
  window.readyAt = (name) => window.__marks[name] ?? NaN;
  window.timeSort = (label) => new Promise((resolve) => {
    // The first row's run (its name link), not its text: a RUNNING run's duration ticks every second.
    const firstRow = () => document.querySelector('tr[aria-rowindex="2"] a, [role="row"][aria-rowindex="2"] a')?.textContent;
    const before = firstRow();
    const button = [...document.querySelectorAll('th button')].find((b) => b.textContent.trim().startsWith(label));
    const t0 = performance.now();
    button.click();
    const poll = () => (firstRow() !== before ? resolve(performance.now() - t0) : requestAnimationFrame(poll));
    requestAnimationFrame(poll);
  });
`;

declare function readyAt(name: string): number;
declare function timeSort(label: string): Promise<number>;

/** Signs in through `POST /api/session` in the page (the cookie lands in the context); returns the org slug. */
async function signInByApi(page: Page, input: BrowserBenchInput): Promise<string> {
  await page.goto(`${input.baseUrl}/sign-in`);
  await page.getByLabel('API key').fill(input.key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
  const answer = await page.request.get(`${input.baseUrl}/api/runs/auth/validate`);
  return ((await answer.json()) as { organization: { slug: string } }).organization.slug;
}

/** The SQID of a run, from its `url` in run details. */
async function sqidOf(page: Page, runId: number): Promise<string> {
  const res = await page.request.get(`${new URL(page.url()).origin}/api/runs/details/${runId}`);
  const { url } = (await res.json()) as { url: string };
  return url.slice(url.lastIndexOf('/') + 1);
}

/** KB gzip of the entry script and stylesheet of ui/dist/index.html and the modules it preloads. */
function initialJsKb(dist: string): number {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  let bytes = 0;
  for (const file of new Set(files)) bytes += zlib.gzipSync(fs.readFileSync(path.join(dist, file))).length;
  return bytes / 1024;
}
