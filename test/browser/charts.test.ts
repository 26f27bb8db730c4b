/**
 * A run's charts in Chromium against a spawned server: a 5,000-step metric drawn from the
 * server's sampled overview (its spike kept), drag-to-zoom re-querying the step window down to
 * raw points (zoom in the URL, double-click resets), smoothing / x axis / log scale, non-finite
 * markers, filter and collapsible groups, lazy loading of many charts, PNG and CSV export, a
 * fork's chart, the compare overlay's legend, dark theme and phone width.
 */
import type { Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { downloadedBytes, hasInk, screenshot, signIn, useDashboard } from '../helpers/browser.js';
import { PHONE, withPage } from '../helpers/with-page.js';
import { createRunHttp, drawn, ingestMetricsHttp, pageWidth, scrollIntoView } from '../helpers/browser-seed.js';
import { http } from '../helpers/http-client.js';
import { metricLine, type PyValue } from '../helpers/ingest-api.js';
import type { SeriesBatch } from '../../src/api/schemas/metrics.js';

const PROJECT = 'charts-demo';
const STEPS = 5000;
const SPIKE_STEP = 3217;
const SPIKE = 25;
const FORK_STEP = 2500;
const LAYERS = 120;
const T0 = Date.UTC(2026, 0, 12, 8, 0, 0);

const lossAt = (step: number) => (step === SPIKE_STEP ? SPIKE : 2 * Math.exp(-step / 1500) + 0.05 * Math.sin(step / 7));

interface Point {
  step: number;
  value: number | null;
}

/** The points of a chart's one run in its GET /api/runs/series answer. */
async function pointsOf(request: Request): Promise<Point[]> {
  const [series] = ((await (await request.response())!.json()) as SeriesBatch).series;
  return series!.steps.map((step, i) => ({ step, value: series!.values[i]! }));
}

const createRun = (base: string, key: string, runName: string, extra: Record<string, unknown> = {}) =>
  createRunHttp(base, key, { runName, projectName: PROJECT, createdAt: T0, ...extra });

async function ingestLines(base: string, key: string, runId: number, lines: PyValue[]): Promise<void> {
  for (let i = 0; i < lines.length; i += 2000) {
    await ingestMetricsHttp(base, key, runId, PROJECT, lines.slice(i, i + 2000));
  }
}

async function finish(base: string, key: string, runId: number): Promise<void> {
  const res = await http(base, 'POST', '/api/runs/status/update', { key, json: { runId, status: 'COMPLETED' } });
  expect(res.status).toBe(200);
}

const figure = (page: Page, logName: string) => page.locator(`figure[aria-label="${logName}"]`);

/** The series request of a chart: logName, and whether it asks for a step window. */
const metricsRequest = (logName: string, windowed: boolean) => (req: Request) => {
  const url = new URL(req.url());
  return (
    url.pathname === '/api/runs/series' &&
    url.searchParams.get('logName') === logName &&
    url.searchParams.has('stepMax') === windowed
  );
};

/** Drags across the plot of `logName` from one fraction of its width to another. */
async function dragAcross(page: Page, logName: string, from: number, to: number): Promise<void> {
  const over = figure(page, logName).locator('.u-over');
  const box = await over.boundingBox();
  if (!box) throw new Error(`no plot for ${logName}`);
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * from, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * ((from + to) / 2), y, { steps: 4 });
  await page.mouse.move(box.x + box.width * to, y, { steps: 4 });
  await page.mouse.up();
}

describe('run charts', () => {
  const dash = useDashboard();
  let main: { runId: number; path: string };
  let fork: { runId: number; path: string };
  let wide: { runId: number; path: string };

  beforeAll(async () => {
    main = await createRun(dash.base, dash.key, 'loss-curve');
    const lines: PyValue[] = [];
    for (let step = 0; step < STEPS; step++) {
      const data: Record<string, PyValue> = { 'train/loss': lossAt(step) };
      if (step % 10 === 0) data['val/acc'] = 0.5 + 0.45 * (1 - Math.exp(-step / 1200));
      if (step < 200) {
        data['train/grad_norm'] =
          step === 50 ? NaN : step === 100 ? Infinity : step === 150 ? -Infinity : 1 + Math.cos(step / 9);
      }
      lines.push(metricLine(step, data, T0 + step * 1000));
    }
    await ingestLines(dash.base, dash.key, main.runId, lines);
    await finish(dash.base, dash.key, main.runId);

    fork = await createRun(dash.base, dash.key, 'loss-fork', { forkRunId: main.runId, forkStep: FORK_STEP });
    const own: PyValue[] = [];
    for (let step = FORK_STEP + 1; step <= FORK_STEP + 1000; step++) {
      own.push(metricLine(step, { 'train/loss': 0.3 + 0.2 * Math.exp(-(step - FORK_STEP) / 200) }, T0 + 4e6 + step));
    }
    await ingestLines(dash.base, dash.key, fork.runId, own);
    await finish(dash.base, dash.key, fork.runId);

    wide = await createRun(dash.base, dash.key, 'many-metrics');
    const layerLine: Record<string, PyValue> = {};
    const layerLines: PyValue[] = [];
    for (let step = 0; step < 20; step++) {
      for (let i = 0; i < LAYERS; i++) layerLine[`layers/${String(i).padStart(3, '0')}/norm`] = i + Math.sin(step);
      layerLines.push(metricLine(step, { ...layerLine }, T0 + step * 1000));
    }
    await ingestLines(dash.base, dash.key, wide.runId, layerLines);
    await finish(dash.base, dash.key, wide.runId);
  }, 120_000);

  it('draws a 5,000-step metric from a sampled overview that keeps its spike', async () => {
    await withPage(dash, async ({ page }) => {
      const overview = page.waitForRequest(metricsRequest('train/loss', false));
      await signIn(page, dash.base, dash.key, main.path);
      const request = await overview;
      await drawn(page, 'train/loss');
      expect(await hasInk(page, 'figure[aria-label="train/loss"]')).toBe(true);

      const limit = Number(new URL(request.url()).searchParams.get('limit'));
      const width = (await figure(page, 'train/loss').locator('.u-over').boundingBox())!.width;
      expect(limit).toBeGreaterThanOrEqual(width);
      expect(limit).toBeLessThanOrEqual(4 * width + 500);
      const points = await pointsOf(request);
      expect(points.length).toBeLessThan(STEPS);
      expect(points.length).toBeLessThanOrEqual(limit);
      expect(points.find((p) => p.step === SPIKE_STEP)?.value).toBe(SPIKE);
      expect(Math.max(...points.map((p) => p.value ?? 0))).toBe(SPIKE);
      await expect.poll(() => figure(page, 'train/loss').locator('figcaption').textContent()).toContain('sampled');

      // Sections by logGroup, charts in them, the non-finite points counted.
      await page.getByRole('button', { name: /^train \d+$/, expanded: true }).waitFor();
      await page.getByRole('button', { name: /^val \d+$/, expanded: true }).waitFor();
      await drawn(page, 'train/grad_norm');
      expect(await figure(page, 'train/grad_norm').locator('figcaption').textContent()).toContain(
        '3 non-finite points',
      );
      await drawn(page, 'val/acc');

      // The crosshair's readout on hover: the crosshair is synced, the readout is the hovered chart's alone.
      const over = figure(page, 'train/loss').locator('.u-over');
      const box = (await over.boundingBox())!;
      await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
      const tip = figure(page, 'train/loss').locator('.chart-tip');
      await expect.poll(() => tip.isVisible()).toBe(true);
      expect(await tip.textContent()).toMatch(/Step 2,\d{3}/);
      expect(await tip.textContent()).toContain('loss-curve');
      expect(await figure(page, 'val/acc').locator('.chart-tip').isVisible()).toBe(false);
      await screenshot(page, 'charts-light');
      await page.mouse.move(0, 0);
    });
  });

  it('zooms by dragging: the step window is re-queried down to raw points; double-click resets', async () => {
    await withPage(dash, { signIn: main.path }, async ({ page }) => {
      await drawn(page, 'train/loss');
      await drawn(page, 'val/acc');

      const windowed = page.waitForRequest(metricsRequest('train/loss', true));
      await dragAcross(page, 'train/loss', 0.4, 0.43);
      const request = await windowed;
      const url = new URL(request.url());
      const stepMin = Number(url.searchParams.get('stepMin'));
      const stepMax = Number(url.searchParams.get('stepMax'));
      expect(stepMax).toBeGreaterThan(stepMin);
      expect(stepMax - stepMin).toBeLessThan(400);
      const points = await pointsOf(request);
      // Every step of the window, raw.
      expect(points.length).toBe(stepMax - stepMin + 1);
      expect(points.map((p) => p.step)).toEqual(Array.from({ length: points.length }, (_, i) => stepMin + i));
      await page.waitForURL((u) => u.searchParams.get('zoom') === `${stepMin}-${stepMax}`);
      await drawn(page, 'train/loss');
      const caption = figure(page, 'train/loss').locator('figcaption');
      await expect.poll(() => caption.textContent()).toContain(`${points.length} points`);
      expect(await caption.textContent()).not.toContain('sampled');
      expect(await hasInk(page, 'figure[aria-label="train/loss"]')).toBe(true);
      // The page's other charts follow the zoom.
      await drawn(page, 'val/acc');
      await expect.poll(() => figure(page, 'val/acc').locator('figcaption').textContent()).toMatch(/steps \d/);
      await page.getByRole('button', { name: 'Reset zoom' }).waitFor();
      await page.mouse.move(0, 0);
      await screenshot(page, 'charts-zoomed');

      // A reload keeps the zoom (it is in the URL).
      await page.reload();
      await drawn(page, 'train/loss');
      await expect.poll(() => caption.textContent()).toContain(`${points.length} points`);

      await figure(page, 'train/loss').locator('.u-over').dblclick();
      await page.waitForURL((u) => !u.searchParams.has('zoom'));
      await drawn(page, 'train/loss');
      await expect.poll(() => caption.textContent()).toContain('sampled');
    });
  });

  it('applies smoothing, the x axis choices and a log scale', async () => {
    await withPage(dash, { signIn: main.path }, async ({ page }) => {
      await drawn(page, 'train/loss');

      await page.getByLabel('Smoothing').fill('0.9');
      await page.waitForURL((u) => u.searchParams.get('smooth') === '0.9');
      await drawn(page, 'train/loss');
      expect(await hasInk(page, 'figure[aria-label="train/loss"]')).toBe(true);
      await screenshot(page, 'charts-smoothed');

      for (const [label, value] of [
        ['Relative time', 'relative'],
        ['Wall time', 'wall'],
      ] as const) {
        await page.getByLabel('X axis').selectOption({ label });
        await page.waitForURL((u) => u.searchParams.get('x') === value);
        await drawn(page, 'train/loss');
        expect(await hasInk(page, 'figure[aria-label="train/loss"]')).toBe(true);
        const box = (await figure(page, 'train/loss').locator('.u-over').boundingBox())!;
        await page.mouse.move(box.x + box.width * 0.3, box.y + 20);
        await expect.poll(() => figure(page, 'train/loss').locator('.chart-tip').textContent()).toMatch(/step \d/);
      }
      await page.mouse.move(0, 0);

      // Zoom on a time axis still asks for a step window.
      const windowed = page.waitForRequest(metricsRequest('train/loss', true));
      await dragAcross(page, 'train/loss', 0.2, 0.25);
      const url = new URL((await windowed).url());
      expect(Number(url.searchParams.get('stepMax'))).toBeGreaterThan(Number(url.searchParams.get('stepMin')));
      await drawn(page, 'train/loss');
      await page.getByRole('button', { name: 'Reset zoom' }).click();
      await page.waitForURL((u) => !u.searchParams.has('zoom'));

      await page.getByLabel('X axis').selectOption({ label: 'Step' });
      await page.getByLabel('Log scale').check();
      await page.waitForURL((u) => u.searchParams.get('logy') === '1');
      await drawn(page, 'train/loss');
      expect(await hasInk(page, 'figure[aria-label="train/loss"]')).toBe(true);
      await screenshot(page, 'charts-log-scale');
    });
  });

  it('filters charts by name, collapses a group, and exports PNG and CSV', async () => {
    await withPage(dash, { signIn: main.path }, async ({ page }) => {
      await drawn(page, 'train/loss');

      await page.getByLabel('Filter charts').fill('acc');
      await expect.poll(() => page.locator('figure[aria-label]').count()).toBe(1);
      await page.getByText('1 of 3 charts').waitFor();
      await drawn(page, 'val/acc');
      await page.getByLabel('Filter charts').fill('');
      await expect.poll(() => page.locator('figure[aria-label]').count()).toBe(3);

      const trainGroup = page.getByRole('button', { name: /^train \d+$/ });
      await trainGroup.click();
      await expect.poll(() => figure(page, 'train/loss').count()).toBe(0);
      expect(await trainGroup.getAttribute('aria-expanded')).toBe('false');
      await trainGroup.click();
      await drawn(page, 'train/loss');

      const csvDownload = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download train/loss as CSV' }).click();
      const csv = await csvDownload;
      expect(csv.suggestedFilename()).toBe('train_loss.csv');
      const text = (await downloadedBytes(csv)).toString('utf8');
      const rows = text.trim().split('\n');
      expect(rows[0]).toBe('run,runId,step,time,value,valueFlag');
      expect(rows.length).toBeGreaterThan(100);
      expect(rows.some((r) => r.includes(`,${SPIKE_STEP},`) && r.includes(`,${SPIKE},`))).toBe(true);

      const pngDownload = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download train/loss as PNG' }).click();
      const png = await pngDownload;
      expect(png.suggestedFilename()).toBe('train_loss.png');
      const bytes = await downloadedBytes(png);
      expect(bytes.subarray(1, 4).toString()).toBe('PNG');
      expect(bytes.length).toBeGreaterThan(2000);
    });
  });

  it("draws a fork's inherited part and its own part", async () => {
    await withPage(dash, async ({ page }) => {
      const overview = page.waitForRequest(metricsRequest('train/loss', false));
      await signIn(page, dash.base, dash.key, fork.path);
      const points = await pointsOf(await overview);
      expect(points.some((p) => p.step <= FORK_STEP)).toBe(true);
      expect(points.some((p) => p.step > FORK_STEP)).toBe(true);
      // The parent's spike after the fork step is not inherited (the fork's own point at that
      // step may be in the sample: a lone chart now spans its row and asks for more points).
      expect(points.some((p) => p.step === SPIKE_STEP && p.value === SPIKE)).toBe(false);
      await drawn(page, 'train/loss');
      expect(await hasInk(page, 'figure[aria-label="train/loss"]')).toBe(true);
      await screenshot(page, 'charts-fork');
    });
  });

  it('loads only the charts near the viewport among many', async () => {
    await withPage(dash, async ({ page }) => {
      const asked = new Set<string>();
      page.on('request', (req) => {
        const url = new URL(req.url());
        if (url.pathname === '/api/runs/series') asked.add(url.searchParams.get('logName') ?? '');
      });
      await signIn(page, dash.base, dash.key, wide.path);
      await drawn(page, 'layers/000/norm');
      await expect.poll(() => page.locator('figure[aria-label]').count()).toBe(LAYERS);
      expect(asked.size).toBeGreaterThan(0);
      expect(asked.size).toBeLessThan(LAYERS / 2);
      const last = `layers/${String(LAYERS - 1).padStart(3, '0')}/norm`;
      expect(await figure(page, last).getAttribute('aria-busy')).toBe('true');
      await scrollIntoView(figure(page, last));
      await drawn(page, last);
      expect(asked.has(last)).toBe(true);
    });
  });

  it('overlays runs on the compare page with a legend that hides and shows a run', async () => {
    await withPage(dash, async ({ page }) => {
      const validate = await http(dash.base, 'GET', '/api/runs/auth/validate', { key: dash.key });
      const org = (validate.body.organization as { slug: string }).slug;
      await signIn(page, dash.base, dash.key, `/o/${org}/projects/${PROJECT}/compare?runs=${main.runId},${fork.runId}`);
      await drawn(page, 'train/loss');
      const legend = page.getByRole('list', { name: 'Runs' });
      const forkButton = legend.getByRole('button', { name: 'loss-fork' });
      expect(await forkButton.getAttribute('aria-pressed')).toBe('true');
      const box = (await figure(page, 'train/loss').locator('.u-over').boundingBox())!;
      await page.mouse.move(box.x + box.width * 0.55, box.y + 30);
      const tip = figure(page, 'train/loss').locator('.chart-tip');
      await expect.poll(() => tip.locator('li').count()).toBe(2);
      await screenshot(page, 'charts-compare');
      await page.mouse.move(0, 0);

      await forkButton.click();
      expect(await forkButton.getAttribute('aria-pressed')).toBe('false');
      await page.waitForURL((u) => u.searchParams.get('hide') === String(fork.runId));
      await drawn(page, 'train/loss');
      await page.mouse.move(box.x + box.width * 0.55, box.y + 30);
      await expect.poll(() => tip.locator('li').count()).toBe(1);
      await forkButton.click();
      expect(await forkButton.getAttribute('aria-pressed')).toBe('true');
    });
  });

  it('reads well in the dark theme and at phone width', async () => {
    await withPage(dash, { colorScheme: 'dark', signIn: main.path }, async ({ page }) => {
      await drawn(page, 'train/loss');
      await drawn(page, 'val/acc');
      expect(await hasInk(page, 'figure[aria-label="train/loss"]')).toBe(true);
      await screenshot(page, 'charts-dark');
    });

    await withPage(dash, { ...PHONE, signIn: main.path }, async ({ page }) => {
      await drawn(page, 'train/loss');
      expect(await hasInk(page, 'figure[aria-label="train/loss"]')).toBe(true);
      const plotWidth = (await figure(page, 'train/loss').locator('.u-over').boundingBox())!.width;
      expect(plotWidth).toBeGreaterThan(200);
      expect(await pageWidth(page)).toBeLessThanOrEqual(390);
      await screenshot(page, 'charts-phone');
    });
  });
});
