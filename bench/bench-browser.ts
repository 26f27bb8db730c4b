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
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Page } from 'playwright-core';
import { launchChromium } from '../test/helpers/browser.js';
import { quantile } from './bench-stats.js';

export interface BrowserBenchInput {
  baseUrl: string;
  key: string;
  /** The run with the 1,000,000-point metric `metric`. */
  bigRunId: number;
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
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
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
        if (res.url().includes('/api/runs/metrics'))
          void res
            .body()
            .then((b) => (bytes += b.length))
            .catch(() => {});
      };
      page.on('response', count);
      const t0 = performance.now();
      await page.goto(url);
      await page.locator(figure).waitFor({ timeout: 60_000 });
      const elapsed = performance.now() - t0;
      await page.waitForLoadState('networkidle');
      page.off('response', count);
      return { elapsed, bytes };
    };
    await chart(small); // warm the browser cache of the app's code, as a returning user has it
    const bigRuns = [await chart(big), await chart(big), await chart(big)];
    const smallRuns = [await chart(small), await chart(small), await chart(small)];
    log(
      `browser, chart of a 1,000,000-point metric ready (aria-busy=false): median ${ms(median(bigRuns.map((r) => r.elapsed)))} of 3, ` +
        `${(Math.max(...bigRuns.map((r) => r.bytes)) / 1e6).toFixed(2)} MB of metric data | baseline: same page over 10 points ` +
        `${ms(median(smallRuns.map((r) => r.elapsed)))}`,
    );

    const projects = `${input.baseUrl}/o/${session}/projects`;
    const table = `${projects}/${encodeURIComponent(input.tableProject)}`;
    const firstRow = () => page.getByRole('row').nth(1).waitFor({ timeout: 60_000 });
    const projectsMs: number[] = [];
    const tableMs: number[] = [];
    const sortMs: number[] = [];
    for (let i = 0; i < 3; i++) {
      let t0 = performance.now();
      await page.goto(projects);
      await page.getByRole('link', { name: input.tableProject }).first().waitFor({ timeout: 60_000 });
      projectsMs.push(performance.now() - t0);
      t0 = performance.now();
      await page.goto(`${table}?col=${encodeURIComponent(`metric:last:${input.sortMetric}`)}`);
      await firstRow();
      tableMs.push(performance.now() - t0);
      const before = await page.getByRole('row').nth(1).innerText();
      t0 = performance.now();
      await page
        .getByRole('button', { name: new RegExp(`^(sort by )?${input.sortMetric}`, 'i') })
        .first()
        .click();
      await page.waitForFunction(
        (old) => {
          const row = document.querySelectorAll('[role="row"], tr')[1];
          return row !== undefined && (row as HTMLElement).innerText !== old;
        },
        before,
        { timeout: 60_000 },
      );
      sortMs.push(performance.now() - t0);
    }
    log(
      `browser, ${input.runs.toLocaleString('en-US')}-run table: first rows ${ms(median(tableMs))}, re-sort by ${input.sortMetric} ` +
        `${ms(median(sortMs))} (medians of 3) | baseline: projects page ${ms(median(projectsMs))}`,
    );
    await context.close();
  } finally {
    await browser.close();
  }
}

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
