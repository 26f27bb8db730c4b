/**
 * Many runs on one page (issue 27, bug 4): a run keeps one colour everywhere, taken from the
 * run itself (compare pages of other subsets and orders, the run page's tooltip), twenty
 * colours before line styles repeat them, tooltips that cut long names in the middle and list
 * a dozen runs on the hovered chart only, and a run list and legend that leave the first
 * chart on the first screen at 60 runs.
 */
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot, useDashboard } from '../helpers/browser.js';
import { withPage } from '../helpers/with-page.js';
import { createRunHttp, drawn, ingestMetricsHttp, type SeededRun, orgOf } from '../helpers/browser-seed.js';
import { metricLine } from '../helpers/ingest-api.js';

const PROJECT = 'many-runs';
const RUNS = 60;
const DESKTOP = { width: 1440, height: 900 } as const;

/** Long names that differ only at their end, as a sweep names its runs. */
const nameOf = (i: number) => `resnet18-adamw-cosine-warmup-lr${[0.001, 0.0003, 0.003][i % 3]}-seed${i}`;

const figure = (page: Page, logName: string) => page.locator(`figure[aria-label="${logName}"]`);

/** Each legend swatch's look: its colour and its line pattern (none when solid). */
const swatchLooks = (legend: Locator) =>
  legend.locator('.chart-swatch').evaluateAll((els) =>
    els.map((el) => {
      const style = getComputedStyle(el);
      return `${style.backgroundColor}|${style.backgroundImage}`;
    }),
  );

describe('many runs', () => {
  const dash = useDashboard();
  const runs: SeededRun[] = [];
  let org: string;
  const comparePath = (list: readonly SeededRun[]) =>
    `/o/${org}/projects/${PROJECT}/compare?runs=${list.map((r) => r.runId).join(',')}`;

  beforeAll(async () => {
    // One run at a time: the shared server refuses a flood of writes (503 OVERLOADED).
    for (let i = 1; i <= RUNS; i++) {
      const run = await createRunHttp(dash.base, dash.key, { runName: nameOf(i), projectName: PROJECT });
      runs.push(run);
      const lines = Array.from({ length: 30 }, (_, step) =>
        metricLine(step, { 'train/loss': (1 + (i - 1) / 10) / (step + 1), 'val/acc': 1 - 1 / (step + 1 + i) }),
      );
      await ingestMetricsHttp(dash.base, dash.key, run.runId, PROJECT, lines);
    }
    org = orgOf(runs[0]!);
  });

  it('gives twelve runs twelve colours, each kept on other compare pages and on its run page', async () => {
    const twelve = runs.slice(0, 12);
    let looks: string[] = [];
    await withPage(dash, { ...DESKTOP, signIn: comparePath(twelve) }, async ({ page }) => {
      const legend = page.getByRole('list', { name: 'Runs' });
      await legend.getByRole('button', { name: nameOf(12) }).waitFor();
      looks = await swatchLooks(legend);
      expect(looks).toHaveLength(12);
      expect(new Set(looks).size, looks.join('\n')).toBe(12);
    });
    // Another subset in another order: each run keeps its look.
    await withPage(dash, { ...DESKTOP, signIn: comparePath([twelve[11]!, twelve[2]!]) }, async ({ page }) => {
      const legend = page.getByRole('list', { name: 'Runs' });
      await legend.getByRole('button', { name: nameOf(3) }).waitFor();
      expect(await swatchLooks(legend)).toEqual([looks[11], looks[2]]);
    });
    // The run page draws run 12 in the same colour (the tooltip's swatch shows it).
    await withPage(dash, { ...DESKTOP, signIn: twelve[11]!.path }, async ({ page }) => {
      await drawn(page, 'train/loss');
      const box = (await figure(page, 'train/loss').locator('.u-over').boundingBox())!;
      await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
      const tip = figure(page, 'train/loss').locator('.chart-tip');
      await expect.poll(() => tip.isVisible()).toBe(true);
      const color = await tip
        .locator('.chart-swatch')
        .first()
        .evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(looks[11]!.startsWith(`${color}|`)).toBe(true);
    });
  });

  it('has twenty colours, then line styles: 24 runs look 24 ways', async () => {
    await withPage(dash, { ...DESKTOP, signIn: comparePath(runs.slice(0, 24)) }, async ({ page }) => {
      const legend = page.getByRole('list', { name: 'Runs' });
      await legend.getByRole('button', { name: nameOf(24) }).waitFor();
      const looks = await swatchLooks(legend);
      expect(looks).toHaveLength(24);
      expect(new Set(looks).size).toBe(24);
      expect(new Set(looks.map((l) => l.split('|')[0])).size).toBe(20);
    });
  });

  it('cuts names in the middle and lists twelve runs on the hovered chart only', async () => {
    await withPage(dash, { ...DESKTOP, signIn: comparePath(runs.slice(0, 12)) }, async ({ page }) => {
      await drawn(page, 'train/loss');
      await drawn(page, 'val/acc');
      const box = (await figure(page, 'train/loss').locator('.u-over').boundingBox())!;
      await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.5);
      const tip = figure(page, 'train/loss').locator('.chart-tip');
      await expect.poll(() => tip.isVisible()).toBe(true);
      const names = tip.locator('.chart-tip-name');
      expect(await names.count()).toBe(12);
      expect(await tip.locator('.chart-tip-more').count()).toBe(0);
      const shown = await names.evaluateAll((els) =>
        els.map((el) => ({ text: el.textContent ?? '', cut: el.scrollWidth > el.clientWidth })),
      );
      for (const { text, cut } of shown) {
        expect(text).toMatch(/^resnet18.*….*-lr[\d.]+-seed\d+$/);
        expect(cut, text).toBe(false);
      }
      // The other charts follow the crosshair without a tooltip of their own.
      expect(await figure(page, 'val/acc').locator('.chart-tip').isVisible()).toBe(false);
      await screenshot(page, 'many-runs-tooltip');
      await page.mouse.move(0, 0);
    });
  });

  it('keeps the first chart on the first screen at 60 runs', async () => {
    await withPage(dash, { ...DESKTOP, signIn: comparePath(runs) }, async ({ page }) => {
      const charts = page.getByRole('region', { name: 'Charts', exact: true });
      const first = charts.locator('figure').first();
      await first.waitFor();
      await page
        .getByRole('list', { name: 'Runs' })
        .getByRole('button', { name: nameOf(60) })
        .waitFor();
      const box = (await first.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(DESKTOP.height);
      // The run list is folded to a line; its toggle opens it.
      const list = page.getByRole('list', { name: 'Compared runs' });
      expect(await list.isVisible()).toBe(false);
      await page.getByRole('button', { name: 'Show runs', expanded: false }).click();
      await list.getByRole('link', { name: nameOf(60) }).waitFor();
      // Legend names are cut in the middle, not again at their end.
      const legendNames = await page
        .getByRole('list', { name: 'Runs' })
        .locator('.chart-legend-name')
        .evaluateAll((els) => els.map((el) => ({ text: el.textContent ?? '', cut: el.scrollWidth > el.clientWidth })));
      expect(legendNames).toHaveLength(60);
      for (const { text, cut } of legendNames) {
        expect(text).toMatch(/-seed\d+$/);
        expect(cut, text).toBe(false);
      }
      await screenshot(page, 'many-runs-compare');
    });
  });
});
