/**
 * The run page's System tab in Chromium against a spawned server: `sys/*` samples sent as the
 * pluto client sends them (step 0, a time per sample) plus samples at several steps (the
 * server keeps one sample per step until series chunks, issue 12, keep every one) chart
 * against relative time by default; the x axis can still be changed; the Charts tab leaves
 * `sys/` names out; phone width in the dark theme.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasInk, screenshot, useDashboard } from '../helpers/browser.js';
import { PHONE, withPage } from '../helpers/with-page.js';
import { createRunHttp, ingestMetricsHttp, noSidewaysScroll } from '../helpers/browser-seed.js';
import { metricLine, type PyValue } from '../helpers/ingest-api.js';

const PROJECT = 'system-demo';
const T0 = Date.UTC(2026, 0, 12, 8, 0, 0);

const figure = (page: Page, logName: string) => page.locator(`figure[aria-label="${logName}"]`);
const panel = (page: Page, name: string) => page.getByRole('tabpanel', { name });

describe('the System tab', () => {
  const dash = useDashboard();
  let path: string;

  beforeAll(async () => {
    const run = await createRunHttp(dash.base, dash.key, {
      runName: 'with-system',
      projectName: PROJECT,
      createdAt: T0,
    });
    const runId = run.runId;
    path = run.path;
    const lines: PyValue[] = [];
    // As pluto sends them: every sample at step 0, ten seconds apart.
    for (let i = 0; i < 5; i++) {
      lines.push(metricLine(0, { 'sys/cpu': 20 + i, 'sys/mem': 40 + i }, T0 + i * 10_000));
    }
    // And at steps, so that there is more than one point to draw today.
    for (let step = 1; step <= 30; step++) {
      lines.push(
        metricLine(step, { 'sys/cpu': 50 + 30 * Math.sin(step / 4), 'sys/mem': 40 + step }, T0 + step * 60_000),
      );
      lines.push(metricLine(step, { 'train/loss': 1 / step }, T0 + step * 60_000));
    }
    await ingestMetricsHttp(dash.base, dash.key, runId, PROJECT, lines);
  });

  it('charts sys/ metrics against relative time, and the Charts tab leaves them out', async () => {
    await withPage(dash, { signIn: `${path}?tab=system` }, async ({ page }) => {
      expect(await page.getByRole('tab', { name: 'System' }).getAttribute('aria-selected')).toBe('true');
      const system = panel(page, 'System');
      await system.locator('figure[aria-label="sys/cpu"][aria-busy="false"]').waitFor({ timeout: 15_000 });
      await system.locator('figure[aria-label="sys/mem"][aria-busy="false"]').waitFor({ timeout: 15_000 });
      expect(await hasInk(page, 'figure[aria-label="sys/cpu"]')).toBe(true);
      expect(await system.getByLabel('X axis').inputValue()).toBe('relative');
      expect(new URL(page.url()).searchParams.has('x')).toBe(false);
      expect(await system.locator('figure[aria-label="train/loss"]').count()).toBe(0);
      await screenshot(page, 'system-tab');

      // The axis can still be changed; Step is then written to the URL.
      await system.getByLabel('X axis').selectOption({ label: 'Step' });
      await expect.poll(() => new URL(page.url()).searchParams.get('x')).toBe('step');
      expect(await hasInk(page, 'figure[aria-label="sys/cpu"]')).toBe(true);
      await system.getByLabel('X axis').selectOption({ label: 'Relative time' });
      await expect.poll(() => new URL(page.url()).searchParams.has('x')).toBe(false);

      await page.getByRole('tab', { name: 'Charts' }).click();
      const charts = panel(page, 'Charts');
      await charts.locator('figure[aria-label="train/loss"][aria-busy="false"]').waitFor({ timeout: 15_000 });
      expect(await charts.locator('figure[aria-label^="sys/"]').count()).toBe(0);
      // The Charts tab keeps its own default: step.
      expect(await charts.getByLabel('X axis').inputValue()).toBe('step');
    });
  });

  it('fits a phone in the dark theme', async () => {
    await withPage(dash, { ...PHONE, colorScheme: 'dark', signIn: `${path}?tab=system` }, async ({ page }) => {
      await figure(page, 'sys/cpu').and(page.locator('[aria-busy="false"]')).waitFor({ timeout: 15_000 });
      expect(await hasInk(page, 'figure[aria-label="sys/cpu"]')).toBe(true);
      await noSidewaysScroll(page);
      await screenshot(page, 'system-tab-phone-dark');
    });
  });
});
