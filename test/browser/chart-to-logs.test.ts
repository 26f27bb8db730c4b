/**
 * Charts linked to the console in Chromium against a spawned server: a click on a chart's
 * point opens the Logs tab scrolled to the console line nearest that point's time (lines
 * carry times, not steps), marked as current, several pages into a long console; a
 * double-click (zoom reset) does not; Back returns to the charts.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot, useDashboard } from '../helpers/browser.js';
import { withPage } from '../helpers/with-page.js';
import { createRunHttp, ingestLogsHttp, ingestMetricsHttp } from '../helpers/browser-seed.js';
import { metricLine } from '../helpers/ingest-api.js';

const PROJECT = 'chart-logs-demo';
const T0 = Date.UTC(2026, 0, 12, 8, 0, 0);
const STEPS = 100;
/** A step every second, a console line every 40 ms: step s was logged with line 25·s + 1. */
const STEP_MS = 1000;
const LINE_MS = 40;
const LINES = STEPS * (STEP_MS / LINE_MS);

/** Clicks the plot of `logName` at a fraction of its width, once, as a person would. */
async function clickPlot(page: Page, logName: string, fraction: number): Promise<void> {
  const over = page.locator(`figure[aria-label="${logName}"] .u-over`);
  const box = (await over.boundingBox())!;
  await page.mouse.move(box.x + box.width * fraction, box.y + box.height / 2);
  await page.mouse.click(box.x + box.width * fraction, box.y + box.height / 2);
}

describe('a chart point opens the console at its time', () => {
  const dash = useDashboard();
  let path: string;

  beforeAll(async () => {
    const run = await createRunHttp(dash.base, dash.key, { runName: 'linked', projectName: PROJECT, createdAt: T0 });
    const runId = run.runId;
    path = run.path;
    const metrics = Array.from({ length: STEPS }, (_, s) =>
      metricLine(s, { 'train/loss': 2 / (s + 1) }, T0 + s * STEP_MS),
    );
    await ingestMetricsHttp(dash.base, dash.key, runId, PROJECT, metrics);
    for (let from = 0; from < LINES; from += 1000) {
      const lines = Array.from({ length: Math.min(1000, LINES - from) }, (_, k) => {
        const j = from + k;
        return {
          time: T0 + j * LINE_MS,
          lineNumber: j + 1,
          logType: 'PRINT',
          message: `console line ${j + 1} at +${j * LINE_MS} ms`,
        };
      });
      await ingestLogsHttp(dash.base, dash.key, runId, PROJECT, lines);
    }
  });

  it('goes to the nearest line, marks it, and Back returns to the chart', async () => {
    await withPage(dash, { signIn: path }, async ({ page }) => {
      await page.locator('figure[aria-label="train/loss"][aria-busy="false"]').waitFor({ timeout: 15_000 });

      // A double-click resets the zoom and stays on the charts.
      await page.locator('figure[aria-label="train/loss"] .u-over').dblclick();
      await page.waitForTimeout(500);
      expect(await page.getByRole('tab', { name: 'Charts' }).getAttribute('aria-selected')).toBe('true');

      await clickPlot(page, 'train/loss', 0.6);
      await expect.poll(() => page.getByRole('tab', { name: 'Logs' }).getAttribute('aria-selected')).toBe('true');
      const url = new URL(page.url());
      const step = Number(url.searchParams.get('logStep'));
      expect(step).toBeGreaterThan(40);
      expect(step).toBeLessThan(80);
      expect(Number(url.searchParams.get('logAt'))).toBe(T0 + step * STEP_MS);

      const lineNumber = step * (STEP_MS / LINE_MS) + 1;
      const logs = page.getByRole('tabpanel', { name: 'Logs' });
      await expect.poll(() => logs.getByRole('status').textContent()).toContain(`Line ${lineNumber} is the nearest`);
      const current = logs.locator('[role="listitem"][aria-current="true"]');
      await current.waitFor();
      expect(await current.textContent()).toContain(`console line ${lineNumber} at`);
      expect(await current.isVisible()).toBe(true);
      // In view inside the console's own scroller.
      const [row, box] = await Promise.all([
        current.boundingBox(),
        logs.getByRole('list', { name: 'Console output' }).boundingBox(),
      ]);
      expect(row!.y).toBeGreaterThanOrEqual(box!.y);
      expect(row!.y + row!.height).toBeLessThanOrEqual(box!.y + box!.height + 1);
      await screenshot(page, 'chart-to-logs');

      await page.goBack();
      await expect.poll(() => page.getByRole('tab', { name: 'Charts' }).getAttribute('aria-selected')).toBe('true');
    });
  });
});
