/**
 * A grouped chart's "Chart settings" (the runs' charts' dialog on the same panel): log scale
 * makes its y axis logarithmic, a y range clamps it, smoothing applies, the x axis choice is
 * disabled with its reason; the settings stay when the grouping is switched off and on and
 * over a reload; the compare page's grouped charts have them too.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot, useDashboard } from '../helpers/browser.js';
import { drawn, noSidewaysScroll, type SeededRun, orgOf } from '../helpers/browser-seed.js';
import { PHONE, withPage } from '../helpers/with-page.js';
import { seedSweep } from './sweep-seed.js';

const PROJECT = 'grouped-settings';
const DESKTOP = { width: 1440, height: 900 } as const;

const figure = (page: Page, name: string) => page.getByRole('figure', { name, exact: true });

async function openSettings(page: Page, chart: string) {
  await figure(page, chart).getByRole('button', { name: 'Chart settings' }).click();
  const dialog = page.getByRole('dialog', { name: /^Chart settings/ });
  await dialog.waitFor();
  return dialog;
}

/** The chart's drawn y scale ('log' or 'linear') and y labels (x-ticks.ts exposeTicks). */
async function yAxis(page: Page, chart: string): Promise<{ scale: string | null; labels: string[] }> {
  const root = figure(page, chart).locator('.uplot');
  return {
    scale: await root.getAttribute('data-y-scale'),
    labels: JSON.parse((await root.getAttribute('data-y-ticks')) ?? '[]') as string[],
  };
}

/** Groups the runs by lr and optimizer (`on`), or ungroups them. */
async function groupByLrOptimizer(page: Page, on: boolean) {
  await page.locator('summary', { hasText: /^Group by/ }).click();
  if (on) {
    await page.getByRole('checkbox', { name: 'lr', exact: true }).check();
    await page.getByRole('checkbox', { name: /^optimizer/ }).check();
  } else await page.getByRole('button', { name: 'Ungroup' }).click();
  await page.keyboard.press('Escape');
}

describe('grouped chart settings', () => {
  const dash = useDashboard();
  let path: string;
  let runs: SeededRun[];

  beforeAll(async () => {
    runs = await seedSweep(dash.base, dash.key, PROJECT);
    path = `/o/${orgOf(runs[0]!)}/projects/${PROJECT}`;
  });

  it('sets log scale, a y range and smoothing on a grouped chart, kept over ungrouping and a reload', async () => {
    await withPage(dash, { ...DESKTOP, signIn: `${path}?group=config.lr,config.optimizer` }, async ({ page }) => {
      await page.getByRole('heading', { name: 'Charts by group' }).waitFor();
      await drawn(page, 'train/loss');
      expect((await yAxis(page, 'train/loss')).scale).toBe('linear');

      let dialog = await openSettings(page, 'train/loss');
      // Grouped reads are by step: the x axis cannot change, and the dialog says why.
      const x = dialog.getByRole('combobox', { name: 'X axis' });
      expect(await x.isDisabled()).toBe(true);
      await dialog.getByText(/^Grouped charts are drawn against step/).waitFor();
      await dialog.getByRole('combobox', { name: 'Log scale' }).selectOption({ label: 'On' });
      await screenshot(page, 'group-chart-settings-dialog');
      await dialog.getByRole('button', { name: 'Done' }).click();
      await expect.poll(async () => (await yAxis(page, 'train/loss')).scale).toBe('log');
      await expect.poll(() => figure(page, 'train/loss').locator('.chart-meta').textContent()).toContain('log scale');
      // The sweep's loss spans ~0.009–2.1: a log axis labels its decades.
      await expect
        .poll(async () => (await yAxis(page, 'train/loss')).labels)
        .toEqual(expect.arrayContaining(['0.01', '0.1', '1']));

      dialog = await openSettings(page, 'train/loss');
      await dialog.getByRole('spinbutton', { name: 'Y min' }).fill('0.2');
      await dialog.getByRole('spinbutton', { name: 'Y max' }).fill('1.5');
      await dialog.getByRole('spinbutton', { name: 'Smoothing' }).fill('0.6');
      await dialog.getByRole('button', { name: 'Done' }).click();
      const clamped = async () => {
        const { labels } = await yAxis(page, 'train/loss');
        return labels.length > 0 && labels.map(Number).every((v) => v >= 0.2 && v <= 1.5);
      };
      await expect.poll(clamped).toBe(true);
      await expect
        .poll(() => figure(page, 'train/loss').locator('.chart-meta').textContent())
        .toContain('smoothing 0.60');
      await screenshot(page, 'group-chart-settings-desktop');

      // Ungrouped, the runs' chart of the same panel has the same settings; grouped again too.
      await groupByLrOptimizer(page, false);
      await page.getByRole('heading', { name: 'Charts by group' }).waitFor({ state: 'detached' });
      await drawn(page, 'train/loss');
      await expect.poll(async () => (await yAxis(page, 'train/loss')).scale).toBe('log');
      dialog = await openSettings(page, 'train/loss');
      expect(await dialog.getByRole('combobox', { name: 'Log scale' }).inputValue()).toBe('on');
      expect(await dialog.getByRole('spinbutton', { name: 'Y max' }).inputValue()).toBe('1.5');
      expect(await dialog.getByRole('combobox', { name: 'X axis' }).isDisabled()).toBe(false);
      await dialog.getByRole('button', { name: 'Done' }).click();

      await groupByLrOptimizer(page, true);
      await page.getByRole('heading', { name: 'Charts by group' }).waitFor();
      await drawn(page, 'train/loss');
      await expect.poll(async () => (await yAxis(page, 'train/loss')).scale).toBe('log');
      await expect.poll(clamped).toBe(true);

      await page.reload();
      await drawn(page, 'train/loss');
      await expect.poll(async () => (await yAxis(page, 'train/loss')).scale).toBe('log');
      await expect
        .poll(() => figure(page, 'train/loss').locator('.chart-meta').textContent())
        .toContain('smoothing 0.60');
    });
  });

  it('opens a grouped chart’s settings on a phone without sideways scroll', async () => {
    await withPage(dash, { ...PHONE, signIn: `${path}?group=config.optimizer` }, async ({ page }) => {
      await page.getByRole('group', { name: 'Show' }).getByRole('button', { name: 'Charts' }).click();
      await drawn(page, 'val/acc');
      const dialog = await openSettings(page, 'val/acc');
      await dialog.getByRole('combobox', { name: 'Log scale' }).selectOption({ label: 'On' });
      await noSidewaysScroll(page);
      await screenshot(page, 'group-chart-settings-phone');
      await dialog.getByRole('button', { name: 'Done' }).click();
      await expect.poll(async () => (await yAxis(page, 'val/acc')).scale).toBe('log');
    });
  });

  it('gives the compare page’s grouped charts the same settings', async () => {
    const ids = runs.slice(0, 8).map((r) => r.runId);
    await withPage(dash, { ...DESKTOP, signIn: `${path}/compare?runs=${ids.join(',')}` }, async ({ page }) => {
      await drawn(page, 'val/acc');
      await groupByLrOptimizer(page, true);
      await page.getByRole('list', { name: 'Groups' }).waitFor();
      await drawn(page, 'val/acc');
      const dialog = await openSettings(page, 'val/acc');
      await dialog.getByRole('spinbutton', { name: 'Y max' }).fill('0.6');
      await dialog.getByRole('button', { name: 'Done' }).click();
      await expect
        .poll(async () => {
          const { labels } = await yAxis(page, 'val/acc');
          return labels.length > 0 && labels.map(Number).every((v) => v <= 0.6);
        })
        .toBe(true);
      await groupByLrOptimizer(page, false);
      await page.getByRole('list', { name: 'Groups' }).waitFor({ state: 'detached' });
      await drawn(page, 'val/acc');
      const again = await openSettings(page, 'val/acc');
      expect(await again.getByRole('spinbutton', { name: 'Y max' }).inputValue()).toBe('0.6');
    });
  });
});
