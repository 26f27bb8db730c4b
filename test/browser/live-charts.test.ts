/**
 * Live charts of a RUNNING run in Chromium: points and metrics ingested while the page is open
 * appear within 5 s without a reload, each poll asks only for the tail (from the last step
 * seen), a zoom stays put while new points arrive, and polling stops in a hidden tab.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasInk, screenshot, signIn, useDashboard } from '../helpers/browser.js';
import { withPage } from '../helpers/with-page.js';
import { createRunHttp, drawn, ingestMetricsHttp } from '../helpers/browser-seed.js';
import { pause } from '../helpers/http-client.js';
import { metricLine, type PyValue } from '../helpers/ingest-api.js';

const PROJECT = 'live-charts';
const T0 = Date.UTC(2026, 0, 14, 8, 0, 0);

const figure = (page: Page, logName: string) => page.locator(`figure[aria-label="${logName}"]`);
const caption = (page: Page, logName: string) => figure(page, logName).locator('figcaption').textContent();

describe('live charts', () => {
  const dash = useDashboard();
  let runId: number;
  let path: string;

  const ingestSteps = async (from: number, to: number, names: readonly string[]) => {
    const lines: PyValue[] = [];
    for (let step = from; step < to; step++) {
      const data: Record<string, PyValue> = {};
      for (const name of names) data[name] = name === 'train/loss' ? 1 / (1 + step / 100) : 0.001 * (1 + step);
      lines.push(metricLine(step, data, T0 + step * 1000));
    }
    await ingestMetricsHttp(dash.base, dash.key, runId, PROJECT, lines);
  };

  beforeAll(async () => {
    const run = await createRunHttp(dash.base, dash.key, { runName: 'live-run', projectName: PROJECT, createdAt: T0 });
    runId = run.runId;
    path = run.path;
    await ingestSteps(0, 200, ['train/loss']);
  }, 60_000);

  it('picks up new points and metrics within 5 s, fetching only the tail, and keeps a zoom', async () => {
    await withPage(dash, async ({ page }) => {
      const lossRequests: URL[] = [];
      page.on('request', (req) => {
        const url = new URL(req.url());
        // The live runs' series come through the batched read of several runs (docs/api.md §4.10).
        if (url.pathname === '/api/runs/series' && url.searchParams.get('logName') === 'train/loss') {
          lossRequests.push(url);
        }
      });
      await signIn(page, dash.base, dash.key, path);
      await drawn(page, 'train/loss');
      expect(await caption(page, 'train/loss')).toContain('200 points');
      await page.evaluate(() => {
        (window as unknown as { notReloaded: boolean }).notReloaded = true;
      });

      await ingestSteps(200, 400, ['train/loss', 'train/lr']);
      await expect.poll(() => caption(page, 'train/loss'), { timeout: 5_000 }).toContain('400 points');
      await figure(page, 'train/lr').waitFor({ timeout: 5_000 });
      await drawn(page, 'train/lr');
      expect(await hasInk(page, 'figure[aria-label="train/lr"]')).toBe(true);
      // The poll asked from the last step it had (199), not for the whole series again.
      const tails = lossRequests.filter(
        (u) => u.searchParams.get('stepMin') === '199' && !u.searchParams.has('stepMax'),
      );
      expect(tails.length).toBeGreaterThan(0);
      expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);

      // Zoom into the first half; new points keep arriving and the zoom stays where it is.
      const over = figure(page, 'train/loss').locator('.u-over');
      const box = (await over.boundingBox())!;
      await page.mouse.move(box.x + box.width * 0.1, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2, { steps: 5 });
      await page.mouse.move(box.x + box.width * 0.45, box.y + box.height / 2, { steps: 5 });
      await page.mouse.up();
      await page.waitForURL((u) => u.searchParams.has('zoom'));
      const zoom = new URL(page.url()).searchParams.get('zoom')!;
      const [zoomMin, zoomMax] = zoom.split('-').map(Number) as [number, number];
      await drawn(page, 'train/loss');
      const zoomedCaption = await caption(page, 'train/loss');
      expect(zoomedCaption).toContain(`${zoomMax - zoomMin + 1} points`);
      const scrollY = await page.evaluate(() => window.scrollY);

      const before = lossRequests.length;
      await ingestSteps(400, 600, ['train/loss', 'train/lr']);
      // A poll of the zoomed window happens (asking only from its last step) and changes nothing.
      await expect
        .poll(
          () =>
            lossRequests
              .slice(before)
              .some(
                (u) =>
                  u.searchParams.get('stepMax') === String(zoomMax) &&
                  u.searchParams.get('stepMin') === String(zoomMax),
              ),
          { timeout: 5_000 },
        )
        .toBe(true);
      await pause(500);
      expect(new URL(page.url()).searchParams.get('zoom')).toBe(zoom);
      expect(await caption(page, 'train/loss')).toBe(zoomedCaption);
      expect(await figure(page, 'train/loss').getAttribute('aria-busy')).toBe('false');
      expect(await page.evaluate(() => window.scrollY)).toBe(scrollY);
      await screenshot(page, 'charts-live-zoomed');

      // Zooming out shows everything, the points that arrived while zoomed included.
      await over.dblclick();
      await page.waitForURL((u) => !u.searchParams.has('zoom'));
      await expect.poll(() => caption(page, 'train/loss'), { timeout: 5_000 }).toContain('600 points');
      await expect.poll(() => caption(page, 'train/lr'), { timeout: 5_000 }).toContain('400 points');
      await page.mouse.move(0, 0);
      await screenshot(page, 'charts-live');
    });
  });

  it('stops polling while the tab is hidden', async () => {
    await withPage(dash, async ({ page }) => {
      let asked = 0;
      page.on('request', (req) => {
        const p = new URL(req.url()).pathname;
        if (p === '/api/runs/metrics' || p === '/api/runs/series' || p === '/api/runs/metric-names') asked++;
      });
      await signIn(page, dash.base, dash.key, path);
      await drawn(page, 'train/loss');
      await expect.poll(() => asked, { timeout: 5_000 }).toBeGreaterThan(3);
      await page.evaluate(() => {
        Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
        Object.defineProperty(document, 'hidden', { value: true, configurable: true });
        document.dispatchEvent(new Event('visibilitychange'));
      });
      await pause(500);
      const hiddenFrom = asked;
      await pause(7_000);
      expect(asked).toBe(hiddenFrom);
    });
  });
});
