/**
 * Per-chart settings and panels in Chromium against a spawned server: a chart drawn against
 * another metric (train/lr, fetched once for the page), a panel whose regular expression
 * draws a family of metrics, adding, removing, restoring, reordering and resizing panels,
 * collapsing a section, all of it kept over a reload; the same on the compare page.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot, signIn, useDashboard } from '../helpers/browser.js';
import { withPage } from '../helpers/with-page.js';
import { createRunHttp, drawn, ingestMetricsHttp, type SeededRun } from '../helpers/browser-seed.js';
import { http } from '../helpers/http-client.js';
import { metricLine } from '../helpers/ingest-api.js';

const PROJECT = 'panels-demo';
const STEPS = 200;
const lrAt = (step: number) => 0.1 * (1 - step / 400);

async function seedRun(base: string, key: string, runName: string, scale: number): Promise<SeededRun> {
  const run = await createRunHttp(base, key, { runName, projectName: PROJECT });
  const lines = Array.from({ length: STEPS }, (_, step) =>
    metricLine(step, {
      'train/loss': scale * Math.exp(-step / 60),
      'train/lr': lrAt(step),
      'train/acc': 1 - Math.exp(-step / 50) / scale,
      'val/acc': 0.5 + step / 1000,
    }),
  );
  await ingestMetricsHttp(base, key, run.runId, PROJECT, lines);
  const res = await http(base, 'POST', '/api/runs/status/update', {
    key,
    json: { runId: run.runId, status: 'COMPLETED' },
  });
  expect(res.status).toBe(200);
  return run;
}

const figure = (page: Page, name: string) => page.getByRole('figure', { name, exact: true });
const settingsDialog = (page: Page) => page.getByRole('dialog', { name: /^Chart settings/ });

async function openSettings(page: Page, chart: string) {
  await figure(page, chart).getByRole('button', { name: 'Chart settings' }).click();
  const dialog = settingsDialog(page);
  await dialog.waitFor();
  return dialog;
}

/** The names of the charts in a section, in their order on the page. */
const chartsIn = (page: Page, section: RegExp) =>
  page
    .getByRole('region', { name: section })
    .locator('figure[aria-label]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));

/** The crosshair readout's text with the mouse at `fraction` of the chart's width. */
async function readoutAt(page: Page, chart: string, fraction: number): Promise<string> {
  const box = (await figure(page, chart).locator('.u-over').boundingBox())!;
  await page.mouse.move(box.x + box.width * fraction, box.y + box.height / 2);
  const tip = figure(page, chart).locator('.chart-tip');
  await expect.poll(() => tip.isVisible()).toBe(true);
  return (await tip.textContent()) ?? '';
}

describe('chart panels', () => {
  const dash = useDashboard();
  let first: SeededRun;
  let second: SeededRun;

  beforeAll(async () => {
    first = await seedRun(dash.base, dash.key, 'panels-a', 2);
    second = await seedRun(dash.base, dash.key, 'panels-b', 3);
  });

  it('draws a chart against another metric, train/lr, fetched once, and keeps it over a reload', async () => {
    await withPage(dash, async ({ page }) => {
      // Watched before the page opens: its first reads may go out before the body would run.
      const lrRequests: string[] = [];
      page.on('request', (req) => {
        const url = new URL(req.url());
        if (url.pathname === '/api/runs/series' && url.searchParams.get('logName') === 'train/lr') {
          lrRequests.push(req.url());
        }
      });
      await signIn(page, dash.base, dash.key, first.path);
      await drawn(page, 'train/loss');
      await drawn(page, 'train/lr');

      const dialog = await openSettings(page, 'train/loss');
      await dialog.getByLabel('X axis').selectOption({ label: 'train/lr' });
      await screenshot(page, 'chart-panels-settings');
      await dialog.getByRole('button', { name: 'Done' }).click();
      await expect.poll(() => dialog.isVisible()).toBe(false);
      await drawn(page, 'train/loss');
      await expect.poll(() => figure(page, 'train/loss').locator('figcaption').textContent()).toContain('x: train/lr');

      // The readout's x is train/lr's value at the point's step; lr falls, so its left is the last steps.
      for (const fraction of [0.05, 0.5, 0.95]) {
        const text = await readoutAt(page, 'train/loss', fraction);
        const m = /train\/lr ([\d.]+) · step (\d+)/.exec(text);
        expect(m, text).not.toBeNull();
        expect(Number(m![1])).toBeCloseTo(lrAt(Number(m![2])), 5);
        if (fraction === 0.05) expect(Number(m![2])).toBeGreaterThan(STEPS * 0.8);
        if (fraction === 0.95) expect(Number(m![2])).toBeLessThan(STEPS * 0.2);
      }
      await page.mouse.move(0, 0);
      // The page's other charts keep the page's x axis.
      expect(await figure(page, 'train/acc').locator('figcaption').textContent()).not.toContain('x:');
      // train/lr's series came from the query its own chart had made.
      expect(lrRequests).toHaveLength(1);
      await screenshot(page, 'chart-panels-x-metric');

      await page.reload();
      await drawn(page, 'train/loss');
      await expect.poll(() => figure(page, 'train/loss').locator('figcaption').textContent()).toContain('x: train/lr');
      const again = await openSettings(page, 'train/loss');
      expect(await again.getByLabel('X axis').inputValue()).toBe('metric:train/lr');
      await again.press('Escape');
    });
  });

  it('adds a panel whose regular expression draws train/.*, and sets its own smoothing and y range', async () => {
    await withPage(dash, { signIn: first.path }, async ({ page }) => {
      await drawn(page, 'train/loss');
      await page.getByRole('button', { name: 'Add panel' }).click();
      const dialog = settingsDialog(page);
      await dialog.waitFor();
      await dialog.getByLabel('Regular expression').fill('train/(');
      await expect.poll(() => dialog.getByLabel('Regular expression').getAttribute('aria-invalid')).toBe('true');
      await dialog.getByLabel('Regular expression').fill('train/.*');
      await dialog.getByText('3 now').waitFor();
      await dialog.getByLabel('Smoothing').fill('0.5');
      await dialog.getByLabel('Y min').fill('0');
      await dialog.getByLabel('Y max').fill('2');
      await dialog.getByRole('button', { name: 'Done' }).click();

      await page.getByRole('button', { name: /^Panels 1$/, expanded: true }).waitFor();
      await drawn(page, 'train/.*');
      const text = await readoutAt(page, 'train/.*', 0.5);
      for (const name of ['train/acc', 'train/loss', 'train/lr']) expect(text).toContain(name);
      expect(text).not.toContain('val/acc');
      // Smoothed: the raw value is shown beside the smoothed one.
      expect(text).toContain('raw');
      await page.mouse.move(0, 0);
      await screenshot(page, 'chart-panels-regex');

      await page.reload();
      await drawn(page, 'train/.*');
      const again = await openSettings(page, 'train/.*');
      expect(await again.getByLabel('Smoothing').inputValue()).toBe('0.5');
      expect(await again.getByLabel('Y max').inputValue()).toBe('2');
      await again.getByRole('button', { name: 'Remove panel' }).click();
      await expect.poll(() => figure(page, 'train/.*').count()).toBe(0);
      expect(await page.getByRole('button', { name: /^Panels \d+$/ }).count()).toBe(0);
    });
  });

  it('reorders, resizes, removes and restores charts and collapses a section, kept over a reload', async () => {
    await withPage(dash, { signIn: first.path }, async ({ page }) => {
      await drawn(page, 'train/lr');
      const train = /^train \d+$/;
      expect(await chartsIn(page, train)).toEqual(['train/acc', 'train/loss', 'train/lr']);

      let dialog = await openSettings(page, 'train/lr');
      expect(await dialog.getByRole('button', { name: 'Move down' }).isDisabled()).toBe(true);
      await dialog.getByRole('button', { name: 'Move up' }).click();
      await expect.poll(() => chartsIn(page, train)).toEqual(['train/acc', 'train/lr', 'train/loss']);
      await dialog.getByRole('button', { name: 'Move up' }).click();
      await expect.poll(() => chartsIn(page, train)).toEqual(['train/lr', 'train/acc', 'train/loss']);
      expect(await dialog.getByRole('button', { name: 'Move up' }).isDisabled()).toBe(true);

      const before = (await figure(page, 'train/lr').boundingBox())!;
      await dialog.getByLabel('Width').selectOption({ label: 'Full row' });
      await dialog.getByLabel('Height').selectOption({ label: 'Tall' });
      await dialog.getByRole('button', { name: 'Done' }).click();
      await drawn(page, 'train/lr');
      await expect
        .poll(async () => (await figure(page, 'train/lr').boundingBox())!.width)
        .toBeGreaterThan(before.width * 1.5);
      await expect
        .poll(async () => (await figure(page, 'train/lr').locator('.chart-plot').boundingBox())!.height)
        .toBeGreaterThan(350);

      dialog = await openSettings(page, 'train/acc');
      await dialog.getByRole('button', { name: 'Remove panel' }).click();
      await expect.poll(() => chartsIn(page, train)).toEqual(['train/lr', 'train/loss']);
      await page.getByRole('button', { name: 'Restore 1 removed chart' }).waitFor();

      await page.getByRole('button', { name: /^val \d+$/ }).click();
      await expect.poll(() => figure(page, 'val/acc').count()).toBe(0);
      await screenshot(page, 'chart-panels-layout');

      await page.reload();
      await drawn(page, 'train/lr');
      expect(await chartsIn(page, train)).toEqual(['train/lr', 'train/loss']);
      expect((await figure(page, 'train/lr').boundingBox())!.width).toBeGreaterThan(before.width * 1.5);
      expect(await page.getByRole('button', { name: /^val \d+$/ }).getAttribute('aria-expanded')).toBe('false');
      expect(await figure(page, 'val/acc').count()).toBe(0);

      await page.getByRole('button', { name: 'Restore 1 removed chart' }).click();
      await expect.poll(() => chartsIn(page, train)).toEqual(['train/lr', 'train/acc', 'train/loss']);
      await page.getByRole('button', { name: /^val \d+$/ }).click();
      await drawn(page, 'val/acc');
    });
  });

  it('gives compared runs the same panels: one line per run and metric, against train/lr', async () => {
    const validate = await http(dash.base, 'GET', '/api/runs/auth/validate', { key: dash.key });
    const org = (validate.body.organization as { slug: string }).slug;
    const path = `/o/${org}/projects/${PROJECT}/compare?runs=${first.runId},${second.runId}`;
    await withPage(dash, { signIn: path }, async ({ page }) => {
      await drawn(page, 'train/loss');
      await page.getByRole('button', { name: 'Add panel' }).click();
      const dialog = settingsDialog(page);
      await dialog.getByLabel('Metrics').selectOption(['train/loss', 'val/acc']);
      await dialog.getByLabel('X axis').selectOption({ label: 'train/lr' });
      await dialog.getByRole('button', { name: 'Done' }).click();
      await drawn(page, 'train/loss, val/acc');
      const text = await readoutAt(page, 'train/loss, val/acc', 0.5);
      expect(text).toMatch(/^train\/lr [\d.]+/);
      for (const run of ['panels-a', 'panels-b']) {
        for (const metric of ['train/loss', 'val/acc']) expect(text).toContain(`${run} · ${metric}`);
      }
      await page.mouse.move(0, 0);
      await screenshot(page, 'chart-panels-compare');
    });
  });
});
