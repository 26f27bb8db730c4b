/**
 * Labels a new user read wrong or missed (issue 27, bug 5) in Chromium against the spawned
 * server: a sampled chart's true point count and "sampled" (also after a live update), the
 * projects page's last activity while a run streams, and a run's alerts on its page.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot, signIn, useDashboard } from '../helpers/browser.js';
import { withPage } from '../helpers/with-page.js';
import { createRunHttp, drawn, ingestMetricsHttp, type SeededRun } from '../helpers/browser-seed.js';
import { http, pause } from '../helpers/http-client.js';
import { metricLine, type PyValue } from '../helpers/ingest-api.js';

const PROJECT = 'labels-demo';
const POINTS = 3000;

const caption = (page: Page, logName: string) =>
  page.locator(`figure[aria-label="${logName}"] figcaption`).textContent();

/** Accuracy-like points at steps [from, to): a rising curve with a wiggle, so sampling keeps its shape. */
const accLines = (from: number, to: number): PyValue[] =>
  Array.from({ length: to - from }, (_, i) => {
    const step = from + i;
    return metricLine(step, { 'train/acc': 1 - Math.exp(-step / 800) + 0.02 * Math.sin(step / 3) });
  });

async function orgSlug(base: string, key: string): Promise<string> {
  const validate = await http(base, 'GET', '/api/runs/auth/validate', { key });
  return (validate.body.organization as { slug: string }).slug;
}

describe('labels', () => {
  const dash = useDashboard();
  let run: SeededRun;

  beforeAll(async () => {
    run = await createRunHttp(dash.base, dash.key, { runName: 'acc-run', projectName: PROJECT });
    await ingestMetricsHttp(dash.base, dash.key, run.runId, PROJECT, accLines(0, POINTS));
  }, 60_000);

  it('gives a sampled series its true point count and says "sampled", also after a live update', async () => {
    await withPage(dash, { signIn: run.path }, async ({ page }) => {
      await drawn(page, 'train/acc');
      await expect.poll(() => caption(page, 'train/acc')).toContain('3,000 points, sampled');
      // The run is RUNNING: new points arrive by a tail fetch, the sample stays a sample.
      await ingestMetricsHttp(dash.base, dash.key, run.runId, PROJECT, accLines(POINTS, POINTS + 10));
      await expect.poll(() => caption(page, 'train/acc'), { timeout: 8_000 }).toContain('3,010 points, sampled');
      await screenshot(page, 'labels-sampled');
    });
  });

  it("shows a project's last activity from its runs' writes, not from its last run creation", async () => {
    const streaming = await createRunHttp(dash.base, dash.key, { runName: 'streamer', projectName: 'stream-old' });
    await createRunHttp(dash.base, dash.key, { runName: 'idle', projectName: 'idle-new' });
    await pause(2_500);
    const wrote = Date.now();
    await ingestMetricsHttp(dash.base, dash.key, streaming.runId, 'stream-old', accLines(0, 5));
    await withPage(dash, async ({ page }) => {
      await signIn(page, dash.base, dash.key, `/o/${await orgSlug(dash.base, dash.key)}/projects`);
      const rows = page.locator('table.projects-table tbody tr');
      await rows.first().waitFor();
      // Sorted by last activity: the project written to last comes first.
      expect(await rows.first().getByRole('link').textContent()).toBe('stream-old');
      const time = rows.first().locator('time');
      expect(Date.parse((await time.getAttribute('datetime'))!)).toBeGreaterThanOrEqual(wrote - 1_000);
      expect(await time.textContent()).toMatch(/^\d+s ago$/);
      await screenshot(page, 'labels-projects');
    });
  });

  it("shows a run's alerts: a banner above its tabs and the list in its Overview", async () => {
    const res = await http(dash.base, 'POST', '/api/runs/alert', {
      key: dash.key,
      json: {
        runId: run.runId,
        alert: {
          timestamp: Date.now() / 1000,
          level: 'ERROR',
          title: 'Loss diverged',
          body: 'loss is NaN at step 812',
        },
      },
    });
    expect(res.status).toBe(200);
    await withPage(dash, { signIn: run.path }, async ({ page }) => {
      const banner = page.getByRole('region', { name: 'Latest alert' });
      await banner.waitFor();
      expect(await banner.textContent()).toContain('Loss diverged');
      expect(await banner.textContent()).toContain('ERROR');
      await banner.getByRole('button', { name: 'Show alerts' }).click();
      await page.waitForURL((u) => u.searchParams.get('tab') === 'overview');
      const list = page.getByRole('list', { name: 'Alerts' });
      await list.waitFor();
      const item = list.getByRole('listitem').first();
      expect(await item.textContent()).toContain('Loss diverged');
      expect(await item.textContent()).toContain('loss is NaN at step 812');
      expect(await item.textContent()).toContain('ERROR');
      expect(await item.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      await screenshot(page, 'labels-alerts');
    });
  });
});
