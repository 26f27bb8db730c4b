/**
 * What the project workspace asks the server while runs are live (issue 27's polling): a
 * project of 100 runs × 4 metrics, 10 of them RUNNING and logging a step a second. Over a
 * 6 s window (two 3 s polls) the page asks for the live runs' new points in a few batched requests per
 * chart (not one per run and chart), never reads a finished run's series again, and sends
 * nothing while the tab is hidden; new points still appear. When a live run finishes, only its
 * series is read again. The counts are printed.
 */
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDashboard } from '../helpers/browser.js';
import { withPage } from '../helpers/with-page.js';
import { createRunHttp, drawn, ingestMetricsHttp, type SeededRun, orgOf } from '../helpers/browser-seed.js';
import { http, pause } from '../helpers/http-client.js';
import { metricLine } from '../helpers/ingest-api.js';

const PROJECT = 'live-polling';
const RUNS = 100;
const LIVE = 10;
const STEPS = 50;
const METRICS = ['train/loss', 'train/acc', 'val/loss', 'val/acc'] as const;
const DESKTOP = { width: 1440, height: 900 } as const;
const WINDOW_MS = 6_000;

const pointsOf = (step: number, i: number) =>
  metricLine(
    step,
    Object.fromEntries(METRICS.map((name, m) => [name, (1 + i / 100 + m) / (step + 1)])),
    Date.UTC(2026, 0, 20) + step * 1000,
  );

/** Requests by kind (path, and for series reads whether they name a finished run). */
type Counts = Record<string, number>;

function watchRequests(page: Page, finished: ReadonlySet<number>) {
  const counts: Counts = {};
  let finishedReads = 0;
  const onRequest = (req: Request) => {
    const url = new URL(req.url());
    if (!url.pathname.startsWith('/api/')) return;
    counts[url.pathname] = (counts[url.pathname] ?? 0) + 1;
    const ids = (url.searchParams.get('runIds') ?? url.searchParams.get('runId') ?? '').split(',').map(Number);
    if (/^\/api\/runs\/(series|metrics)$/.test(url.pathname) && ids.some((id) => finished.has(id))) finishedReads++;
  };
  page.on('request', onRequest);
  return {
    /** The counts since the last take, and how many series reads named a finished run. */
    take: () => {
      const taken = { counts: { ...counts }, finishedReads };
      for (const k of Object.keys(counts)) delete counts[k];
      finishedReads = 0;
      return taken;
    },
  };
}

/** Clicks the Name column's sort button. */
const sortByName = (page: Page) =>
  page.getByRole('columnheader', { name: /Name/ }).getByRole('button', { name: 'Name', exact: true }).click();

/** The duration of the page's last run list request sorted by name (0 until it is answered). */
const resortMs = (page: Page) =>
  page.evaluate(() => {
    const entries = performance
      .getEntriesByType('resource')
      .filter((e) => e.name.includes('/api/runs/list') && e.name.includes('sort=name'));
    return entries.at(-1)?.duration ?? 0;
  });

const total = (counts: Counts) => Object.values(counts).reduce((a, b) => a + b, 0);
const chartReads = (counts: Counts) => (counts['/api/runs/series'] ?? 0) + (counts['/api/runs/metrics'] ?? 0);

describe('polling of the project workspace with live runs', () => {
  const dash = useDashboard();
  const runs: SeededRun[] = [];
  const finished = new Set<number>();
  let projectPath: string;
  let step = STEPS;
  let logging: Promise<void> | undefined;
  let stop = false;

  beforeAll(async () => {
    for (let i = 1; i <= RUNS; i++) {
      const run = await createRunHttp(dash.base, dash.key, { runName: `run-${i}`, projectName: PROJECT });
      runs.push(run);
      const lines = Array.from({ length: STEPS }, (_, s) => pointsOf(s, i));
      await ingestMetricsHttp(dash.base, dash.key, run.runId, PROJECT, lines);
      if (i > LIVE) {
        const res = await http(dash.base, 'POST', '/api/runs/status/update', {
          key: dash.key,
          json: { runId: run.runId, status: 'COMPLETED' },
        });
        expect(res.status).toBe(200);
        finished.add(run.runId);
      }
    }
    projectPath = `/o/${orgOf(runs[0]!)}/projects/${PROJECT}`;
    // The live runs log a step a second (each its own request, as clients do).
    logging = (async () => {
      while (!stop) {
        for (const [i, run] of runs.slice(0, LIVE).entries())
          if (!finished.has(run.runId))
            await ingestMetricsHttp(dash.base, dash.key, run.runId, PROJECT, [pointsOf(step, i + 1)]);
        step++;
        await pause(1000);
      }
    })();
  }, 120_000);

  afterAll(async () => {
    stop = true;
    await logging;
  });

  it('asks for live points in a few requests per chart, never re-reads finished runs, and shows new points', async () => {
    await withPage(dash, { ...DESKTOP, signIn: projectPath }, async ({ page }) => {
      const watch = watchRequests(page, finished);
      for (const name of METRICS) await drawn(page, name);
      await pause(3_500);
      watch.take();
      const caption = () => page.locator('figure[aria-label="train/loss"] figcaption').textContent();
      const before = await caption();
      await pause(WINDOW_MS);
      const { counts, finishedReads } = watch.take();
      console.log(
        `workspace requests in ${WINDOW_MS / 1000} s (${LIVE} of ${RUNS} runs RUNNING, ${METRICS.length} charts): ` +
          `${total(counts)} in all, ${chartReads(counts)} series reads; ${JSON.stringify(counts)}`,
      );
      // A re-sort while the charts poll: the list request from its start (waiting for a
      // connection included) to its answer's end, as the page's resource timing saw it.
      await sortByName(page);
      await expect.poll(() => resortMs(page), { timeout: 10_000 }).toBeGreaterThan(0);
      console.log(`re-sort by name while polling: list request ${Math.round(await resortMs(page))} ms`);

      // New points of the live runs reached the chart.
      expect(await caption()).not.toBe(before);
      expect(finishedReads).toBe(0);
      // Each of the 4 charts polls 2 or 3 times in 6 s: one batched request a poll, at most
      // two (a chart's live runs far apart in steps), not one per live run (about 78 before).
      expect(chartReads(counts)).toBeLessThanOrEqual(METRICS.length * 3 * 2);
      expect(total(counts)).toBeLessThanOrEqual(METRICS.length * 3 * 2 + 6);
    });
  });

  it('sends nothing while the tab is hidden', async () => {
    await withPage(dash, { ...DESKTOP, signIn: projectPath }, async ({ page }) => {
      const watch = watchRequests(page, finished);
      for (const name of METRICS) await drawn(page, name);
      await page.evaluate(() => {
        Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
        Object.defineProperty(document, 'hidden', { value: true, configurable: true });
        document.dispatchEvent(new Event('visibilitychange'));
      });
      await pause(1_000);
      watch.take();
      await pause(WINDOW_MS);
      const { counts } = watch.take();
      console.log(`hidden workspace requests in ${WINDOW_MS / 1000} s: ${total(counts)} ${JSON.stringify(counts)}`);
      expect(total(counts)).toBe(0);
    });
  });

  it('reads only the series of a run that finished, not the other finished runs again', async () => {
    await withPage(dash, { ...DESKTOP, signIn: projectPath }, async ({ page }) => {
      for (const name of METRICS) await drawn(page, name);
      const done = runs[0]!;
      const earlier = new Set(finished);
      const reads: string[][] = [];
      page.on('request', (req) => {
        const url = new URL(req.url());
        if (url.pathname === '/api/runs/series') reads.push((url.searchParams.get('runIds') ?? '').split(','));
      });
      const res = await http(dash.base, 'POST', '/api/runs/status/update', {
        key: dash.key,
        json: { runId: done.runId, status: 'COMPLETED' },
      });
      expect(res.status).toBe(200);
      finished.add(done.runId);
      // A re-sort (by name: run-1 first) asks for the table again, which now shows the run finished.
      await page.getByRole('columnheader', { name: /Name/ }).getByRole('button', { name: 'Name', exact: true }).click();
      const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'run-1', exact: true }) });
      await expect.poll(() => row.locator('.status').textContent(), { timeout: 10_000 }).toBe('COMPLETED');
      await expect
        .poll(() => reads.filter((ids) => ids.length === 1 && ids[0] === String(done.runId)).length, {
          timeout: 10_000,
        })
        .toBeGreaterThanOrEqual(METRICS.length);
      await pause(3_500);
      const again = reads.filter((ids) => ids.some((id) => earlier.has(Number(id))));
      console.log(
        `series reads after run-1 finished: ${reads.length}, naming an earlier finished run: ${again.length}`,
      );
      expect(again).toEqual([]);
    });
  });
});
