/**
 * The run page's Data tab in Chromium against a spawned server: a histogram series logged
 * over 24 steps (edges as pluto sends them) and one with `{min, max, num}` bins are drawn
 * as distributions over steps with a hover and keyboard read-out; a table data line renders
 * its rows, sorts by a column header and switches steps; a text series is listed by step;
 * a failed read shows an error with a retry; phone width and the dark theme.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasInk, screenshot, signIn, useDashboard } from '../helpers/browser.js';
import { PHONE, withPage } from '../helpers/with-page.js';
import { createRunHttp, ingestHttpOk, noSidewaysScroll, scrollIntoView } from '../helpers/browser-seed.js';
import { pyNdjson, type PyValue } from '../helpers/ingest-api.js';

const PROJECT = 'data-lines-demo';
const T0 = Date.UTC(2026, 1, 3, 9, 0, 0);
const STEPS = 24;
const BINS = 30;

/** A bell curve of counts over [-3, 3] whose centre drifts with the step. */
function histogramAt(step: number): { freq: number[]; bins: number[] } {
  const bins = Array.from({ length: BINS + 1 }, (_, i) => -3 + (6 * i) / BINS);
  const mean = -1.5 + (3 * step) / STEPS;
  const sd = 0.4 + step / 40;
  const freq = Array.from({ length: BINS }, (_, i) => {
    const mid = (bins[i]! + bins[i + 1]!) / 2;
    return Math.round(1000 * Math.exp(-((mid - mean) ** 2) / (2 * sd * sd)));
  });
  return { freq, bins };
}

const TABLE_STEP_1 = {
  type: 'Table',
  columns: ['label', 'precision', 'support'],
  data: [
    ['cat', 0.91, 120],
    ['dog', 0.42, 80],
    ['bird', 0.77, 15],
  ],
};
const TABLE_STEP_2 = {
  type: 'Table',
  columns: ['label', 'precision', 'support'],
  data: [
    ['cat', 0.95, 121],
    ['dog', 0.61, 82],
    ['bird', 0.83, 16],
    ['horse', 0.12, 4],
  ],
};

const TEXTS = ['the cat sat on the mat', 'a dog barked twice', 'birds sing at dawn'];

describe('the Data tab', () => {
  const dash = useDashboard();
  let runPath: string;

  beforeAll(async () => {
    const run = await createRunHttp(dash.base, dash.key, {
      runName: 'data-lines',
      projectName: PROJECT,
      createdAt: T0,
    });
    const runId = run.runId;
    runPath = run.path;

    const lines: PyValue[] = [];
    for (let step = 1; step <= STEPS; step++) {
      const h = histogramAt(step);
      lines.push({
        time: T0 + step * 1000,
        step,
        dataType: 'HISTOGRAM',
        logName: 'weights/fc1',
        data: JSON.stringify({ ...h, shape: 'uniform', type: 'Histogram' }),
      });
      if (step <= 12) {
        const freq = Array.from({ length: 16 }, (_, i) => (i + step) % 16);
        lines.push({
          time: T0 + step * 1000,
          step,
          dataType: 'HISTOGRAM',
          logName: 'grads/fc1',
          data: JSON.stringify({ type: 'Histogram', freq, bins: { min: 0, max: 0.5, num: 16 } }),
        });
      }
    }
    lines.push({
      time: T0 + 1000,
      step: 1,
      dataType: 'TABLE',
      logName: 'eval/per-class',
      data: JSON.stringify(TABLE_STEP_1),
    });
    lines.push({
      time: T0 + 2000,
      step: 2,
      dataType: 'TABLE',
      logName: 'eval/per-class',
      data: JSON.stringify(TABLE_STEP_2),
    });
    TEXTS.forEach((text, i) =>
      lines.push({ time: T0 + (i + 1) * 1000, step: i + 1, dataType: 'TEXT', logName: 'samples/caption', data: text }),
    );
    await ingestHttpOk(dash.base, dash.key, 'data', runId, PROJECT, pyNdjson(lines));
  });

  const figure = (page: Page, name: string) => page.locator(`figure[aria-label="${name}"]`);

  async function openData(page: Page): Promise<void> {
    await signIn(page, dash.base, dash.key, `${runPath}?tab=data`);
    await page.getByRole('tab', { name: 'Data' }).waitFor();
    expect(await page.getByRole('tab', { name: 'Data' }).getAttribute('aria-selected')).toBe('true');
  }

  it('draws a histogram series as a distribution over steps with a hover read-out', async () => {
    await withPage(dash, async ({ page }) => {
      await openData(page);
      await scrollIntoView(figure(page, 'weights/fc1'));
      await figure(page, 'weights/fc1').and(page.locator('[aria-busy="false"]')).waitFor({ timeout: 15_000 });
      expect(await hasInk(page, 'figure[aria-label="weights/fc1"] canvas')).toBe(true);
      await scrollIntoView(figure(page, 'grads/fc1'));
      await figure(page, 'grads/fc1').and(page.locator('[aria-busy="false"]')).waitFor({ timeout: 15_000 });
      expect(await hasInk(page, 'figure[aria-label="grads/fc1"] canvas')).toBe(true);

      // Hover the last column near the top of its bell: step 24, its mean is +1.5.
      const canvas = figure(page, 'weights/fc1').locator('canvas');
      await scrollIntoView(canvas);
      const box = await canvas.boundingBox();
      if (!box) throw new Error('no canvas');
      const plotLeft = box.x + 56;
      const plotW = box.width - 56 - 12;
      const plotTop = box.y + 10;
      const plotH = 260 - 10 - 38;
      const yOf = (v: number) => plotTop + plotH - ((v + 3) / 6) * plotH;
      await page.mouse.move(plotLeft + plotW - 2, yOf(1.55));
      const readout = figure(page, 'weights/fc1').locator('figcaption');
      await expect.poll(() => readout.textContent()).toMatch(/Step 24 · bin 1\.4 to 1\.6 · count \d+/);
      const count = Number(/count (\d+)/.exec((await readout.textContent()) ?? '')?.[1]);
      expect(count).toBe(histogramAt(24).freq[22]);
      await screenshot(page, 'data-histogram');

      // The keyboard reads bins too: Left moves to step 23.
      await canvas.focus();
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => readout.textContent()).toMatch(/Step 23 · bin/);
    });
  });

  it('renders a table data line, sorts by a column and switches steps', async () => {
    await withPage(dash, async ({ page }) => {
      await openData(page);
      const table = page.getByRole('table', { name: /eval\/per-class at step 2/ });
      await table.waitFor({ timeout: 15_000 });
      const firstColumn = () => table.locator('tbody tr td:first-child').allTextContents();
      expect(await firstColumn()).toEqual(['cat', 'dog', 'bird', 'horse']);

      const precision = table.getByRole('button', { name: 'precision' });
      await precision.click();
      expect(await table.getByRole('columnheader', { name: 'precision' }).getAttribute('aria-sort')).toBe('ascending');
      expect(await firstColumn()).toEqual(['horse', 'dog', 'bird', 'cat']);
      await precision.click();
      expect(await table.getByRole('columnheader', { name: 'precision' }).getAttribute('aria-sort')).toBe('descending');
      expect(await firstColumn()).toEqual(['cat', 'bird', 'dog', 'horse']);
      // Text columns sort too, by keyboard.
      await table.getByRole('button', { name: 'label' }).focus();
      await page.keyboard.press('Enter');
      expect(await firstColumn()).toEqual(['bird', 'cat', 'dog', 'horse']);
      await scrollIntoView(table);
      await screenshot(page, 'data-table');

      // The step selector shows the table of step 1.
      await page.getByLabel('Step', { exact: true }).selectOption({ label: '1' });
      const step1 = page.getByRole('table', { name: /eval\/per-class at step 1/ });
      await step1.waitFor();
      expect(await step1.locator('tbody tr').count()).toBe(3);

      // The text series, listed by step.
      const list = page.getByRole('list', { name: 'samples/caption by step' });
      const items = list.getByRole('listitem');
      await expect.poll(() => items.count()).toBe(3);
      for (let i = 0; i < TEXTS.length; i++) {
        const text = (await items.nth(i).textContent()) ?? '';
        expect(text).toContain(`step ${i + 1}`);
        expect(text).toContain(TEXTS[i]);
      }
    });
  });

  it('shows an error with a retry when the data lines cannot be read', async () => {
    await withPage(dash, { expectedStatuses: [500] }, async ({ page }) => {
      await page.route('**/api/runs/data?**', (route) =>
        route.fulfill({ status: 500, json: { error: 'data store unavailable', code: 'INTERNAL' } }),
      );
      await openData(page);
      const table = page.locator('section', { has: page.getByRole('heading', { name: 'eval/per-class' }) });
      await table.getByRole('alert').waitFor({ timeout: 15_000 });
      await page.unroute('**/api/runs/data?**');
      await table.getByRole('button', { name: 'Try again' }).click();
      await page.getByRole('table', { name: /eval\/per-class at step 2/ }).waitFor({ timeout: 15_000 });
    });
  });

  it('fits a phone in the dark theme', async () => {
    await withPage(dash, { ...PHONE, colorScheme: 'dark' }, async ({ page }) => {
      await openData(page);
      await scrollIntoView(figure(page, 'weights/fc1'));
      await figure(page, 'weights/fc1').and(page.locator('[aria-busy="false"]')).waitFor({ timeout: 15_000 });
      expect(await hasInk(page, 'figure[aria-label="weights/fc1"] canvas')).toBe(true);
      await page.getByRole('table', { name: /eval\/per-class/ }).waitFor();
      await noSidewaysScroll(page);
      await screenshot(page, 'data-phone-dark');
    });
  });
});
