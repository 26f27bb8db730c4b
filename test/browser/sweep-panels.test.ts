/**
 * The sweep panels (issue 28): parallel coordinates over the sweep's config keys and a
 * metric, whose brush narrows the runs table; the metric against a key; and the keys'
 * importance for the metric, at desktop and phone widths.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot, useDashboard } from '../helpers/browser.js';
import { noSidewaysScroll, orgOf } from '../helpers/browser-seed.js';
import { PHONE, withPage } from '../helpers/with-page.js';
import { seedSweep } from './sweep-seed.js';

const PROJECT = 'sweep-panels';
const DESKTOP = { width: 1440, height: 1000 } as const;

const count = (page: Page) => page.locator('.selection-bar .count');

describe('the sweep panels', () => {
  const dash = useDashboard();
  let path: string;

  beforeAll(async () => {
    const runs = await seedSweep(dash.base, dash.key, PROJECT);
    path = `/o/${orgOf(runs[0]!)}/projects/${PROJECT}?sweep=1&smetric=val%2Facc`;
  });

  it('brushing the lr axis of the parallel coordinates narrows the table to the runs inside it', async () => {
    await withPage(dash, { ...DESKTOP, signIn: path }, async ({ page }) => {
      await expect.poll(() => count(page).textContent()).toBe('24 runs');
      const axis = page.getByRole('button', { name: /^Brush lr:/ });
      await axis.waitFor();
      await expect.poll(() => page.locator('.sweep-pc path').count()).toBe(24);
      // lr 0.0003..0.003: the top tenth of the axis holds only 0.003.
      const box = (await axis.boundingBox())!;
      const x = box.x + box.width / 2;
      await page.mouse.move(x, box.y + 1);
      await page.mouse.down();
      await page.mouse.move(x, box.y + box.height * 0.1, { steps: 4 });
      await page.mouse.up();
      await expect.poll(() => count(page).textContent()).toBe('8 runs match');
      await expect(page.getByRole('list', { name: 'Active filters' }).textContent()).resolves.toContain('brush lr');
      expect(page.url()).toContain('brush=');
      // Every row left has lr 0.003; the panels still draw all 24 runs, 16 of them faded.
      const names = await page.getByRole('region', { name: 'Runs table' }).getByRole('link').allTextContents();
      expect(names).toHaveLength(8);
      expect(names.every((n) => n.includes('lr0.003'))).toBe(true);
      await expect.poll(() => page.locator('.sweep-pc path[stroke="var(--border)"]').count()).toBe(16);
      await screenshot(page, 'sweep-panels-brushed');

      // The importance table names every key; lr matters most for val/acc in this sweep.
      const table = page.getByRole('table', { name: /Parameter importance for val\/acc/ });
      const first = await table.getByRole('rowheader').first().textContent();
      expect(['lr', 'optimizer']).toContain(first);
      expect(await table.getByRole('rowheader').count()).toBe(3);
      await page
        .getByRole('figure', { name: /^Scatter of val\/acc against/ })
        .locator('circle')
        .first()
        .waitFor();

      // A click on the axis clears its brush.
      await axis.click();
      await expect.poll(() => count(page).textContent()).toBe('24 runs');

      // By keyboard: an arrow key brushes the middle of the axis (lr 0.001 on its log scale), Delete clears it.
      await axis.focus();
      await page.keyboard.press('ArrowUp');
      await expect.poll(() => count(page).textContent()).toBe('8 runs match');
      const middle = await page.getByRole('region', { name: 'Runs table' }).getByRole('link').allTextContents();
      expect(middle.every((n) => n.includes('lr0.001-'))).toBe(true);
      await page.keyboard.press('Delete');
      await expect.poll(() => count(page).textContent()).toBe('24 runs');
    });
  });

  it("writes the scatter's value ticks whole, inside the chart", async () => {
    const url = path.replace('smetric=val%2Facc', 'smetric=train%2Floss');
    for (const size of [DESKTOP, PHONE])
      await withPage(dash, { ...size, signIn: url }, async ({ page }) => {
        const scatter = page.getByRole('img', { name: /^train\/loss against lr/ });
        await scatter.locator('circle').first().waitFor();
        const ticks = await scatter
          .locator('text')
          .evaluateAll((els) => els.map((e) => ({ text: e.textContent, left: (e as SVGTextElement).getBBox().x })));
        expect(ticks.length).toBeGreaterThan(3);
        expect(ticks.filter((t) => t.left < 0)).toEqual([]);
      });
  });

  it('fits a phone without sideways scroll', async () => {
    await withPage(dash, { ...PHONE, signIn: path }, async ({ page }) => {
      await page.getByRole('button', { name: /^Brush lr:/ }).waitFor();
      await noSidewaysScroll(page);
      await screenshot(page, 'sweep-panels-phone');
    });
  });
});
