/**
 * Metric summaries in Chromium against a spawned server: runs-table columns of a metric's
 * min and mean that sort through the API and survive a reload, and a run's Overview with
 * each metric's final and best value (first 20, Show all, find), at desktop and phone width.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot, useDashboard } from '../helpers/browser.js';
import { createRunHttp, ingestMetricsHttp, noSidewaysScroll, type SeededRun, orgOf } from '../helpers/browser-seed.js';
import { metricLine } from '../helpers/ingest-api.js';
import { PHONE, withPage } from '../helpers/with-page.js';

const PROJECT = 'summaries';
/** val/acc by step: last, min, max and mean order the runs differently. */
const ACC: Record<string, number[]> = {
  'run-a': [0.2, 0.9, 0.5], // last 0.5, min 0.2, mean 0.5333
  'run-b': [0.6, 0.6, 0.7], // last 0.7, min 0.6, mean 0.6333
  'run-c': [0.4, 0.45, 0.3], // last 0.3, min 0.3, mean 0.3833
};

/** The run names of the runs table's rows, top to bottom. */
function rowNames(page: Page): Promise<string[]> {
  const table = page.getByRole('region', { name: 'Runs table' });
  return table.locator(`tbody tr:not(.spacer) a[href*="/projects/${PROJECT}/"]`).allTextContents();
}

describe('metric summaries', () => {
  const dash = useDashboard();
  const runs = new Map<string, SeededRun>();
  let wide: SeededRun;
  let org: string;

  beforeAll(async () => {
    for (const [name, acc] of Object.entries(ACC)) {
      const run = await createRunHttp(dash.base, dash.key, { runName: name, projectName: PROJECT });
      runs.set(name, run);
      const loss = [2, 0.4, 0.6];
      const lr = [0.1, 0.01, 0.001];
      const lines = acc.map((v, step) => metricLine(step, { 'val/acc': v, 'train/loss': loss[step]!, lr: lr[step]! }));
      await ingestMetricsHttp(dash.base, dash.key, run.runId, PROJECT, lines);
    }
    wide = await createRunHttp(dash.base, dash.key, { runName: 'wide', projectName: 'wide' });
    const data = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`m/${String(i).padStart(2, '0')}`, i]));
    await ingestMetricsHttp(dash.base, dash.key, wide.runId, 'wide', [metricLine(0, data)]);
    org = orgOf(runs.get('run-a')!);
  });

  it('sorts the runs by a metric column of min or mean, kept in the URL across a reload', async () => {
    await withPage(dash, { signIn: `/o/${org}/projects/${PROJECT}` }, async ({ page }) => {
      await page.getByText('3 runs').waitFor();
      await page.getByText('Columns', { exact: true }).click();
      await page.getByRole('checkbox', { name: 'val/acc min' }).check();
      await page.getByRole('checkbox', { name: 'val/acc mean' }).check();
      await page.keyboard.press('Escape');
      const min = page.getByRole('columnheader', { name: /val\/acc \(min\)/ });
      const mean = page.getByRole('columnheader', { name: /val\/acc \(mean\)/ });
      await mean.waitFor();
      expect(new URL(page.url()).searchParams.getAll('col')).toEqual(['metric:min:val/acc', 'metric:mean:val/acc']);

      await min.getByRole('button', { name: 'val/acc (min)', exact: true }).click();
      await expect.poll(() => rowNames(page)).toEqual(['run-a', 'run-c', 'run-b']);
      expect(await min.getAttribute('aria-sort')).toBe('ascending');
      expect(new URL(page.url()).searchParams.get('sort')).toBe('summary_min.val/acc');

      const byMean = mean.getByRole('button', { name: 'val/acc (mean)', exact: true });
      await byMean.click();
      await expect.poll(() => rowNames(page)).toEqual(['run-c', 'run-a', 'run-b']);
      await byMean.click();
      await expect.poll(() => rowNames(page)).toEqual(['run-b', 'run-a', 'run-c']);
      expect(await mean.getAttribute('aria-sort')).toBe('descending');
      expect(new URL(page.url()).searchParams.get('sort')).toBe('-summary_mean.val/acc');
      const runB = page.getByRole('row', { name: /Select run run-b\b/ });
      expect(await runB.textContent()).toContain('0.633333');
      await screenshot(page, 'runs-metric-summaries');

      await page.reload();
      await expect.poll(() => rowNames(page)).toEqual(['run-b', 'run-a', 'run-c']);
      expect(await page.getByRole('columnheader', { name: /val\/acc \(mean\)/ }).getAttribute('aria-sort')).toBe(
        'descending',
      );
    });
  });

  it('shows each metric’s final and best value on a run’s Overview', async () => {
    await withPage(dash, { signIn: `${runs.get('run-a')!.path}?tab=overview` }, async ({ page }) => {
      const table = page.getByRole('table', { name: 'Final and best value of each metric' });
      await table.waitFor();
      const cells = (name: string) => table.getByRole('row', { name: new RegExp(`^${name}\\b`) }).getByRole('cell');
      expect(await table.getByRole('rowheader').allTextContents()).toEqual(['lr', 'train/loss', 'val/acc']);
      expect(await cells('train/loss').allTextContents()).toEqual(['0.6', '0.4 min']);
      expect(await cells('val/acc').allTextContents()).toEqual(['0.5', '0.9 max']);
      expect(await cells('lr').allTextContents()).toEqual(['0.001', '—']);
      expect(await cells('train/loss').first().getAttribute('title')).toBe('step 2');
      await screenshot(page, 'run-overview-metrics');
    });
  });

  it('shows the first 20 metrics of a wide run, then all, and finds one', async () => {
    await withPage(dash, { signIn: `${wide.path}?tab=overview`, ...PHONE }, async ({ page }) => {
      const table = page.getByRole('table', { name: 'Final and best value of each metric' });
      await table.waitFor();
      const names = () => table.getByRole('rowheader').allTextContents();
      expect(await names()).toHaveLength(20);
      await noSidewaysScroll(page);
      await page.getByRole('button', { name: 'Show all 30 metrics' }).click();
      await expect.poll(async () => (await names()).length).toBe(30);
      await page.getByLabel('Find a metric').fill('M/2');
      await expect.poll(names).toEqual(Array.from({ length: 10 }, (_, i) => `m/2${i}`));
      await page.getByLabel('Find a metric').fill('nothing');
      await page.getByText('No metric name contains “nothing”.').waitFor();
      await screenshot(page, 'run-overview-metrics-phone');
    });
  });
});
