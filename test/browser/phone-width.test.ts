/**
 * The sign-in, projects and runs pages at phone width (390 px): nothing scrolls the page
 * sideways (the runs table scrolls inside its own box). Also the runs page in the dark theme.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot, signIn, useDashboard } from '../helpers/browser.js';
import { PHONE, withPage } from '../helpers/with-page.js';
import { createRunHttp, ingestMetricsHttp, pageWidth } from '../helpers/browser-seed.js';
import { http } from '../helpers/http-client.js';
import { metricLine } from '../helpers/ingest-api.js';

const PROJECT = 'a-rather-long-project-name-for-small-screens';

describe('the dashboard at phone width', () => {
  const dash = useDashboard();
  let org: string;

  beforeAll(async () => {
    const { base, key } = dash;
    const start = Date.now() - 3 * 3600_000;
    for (let i = 0; i < 12; i++) {
      const { runId } = await createRunHttp(base, key, {
        runName: `experiment-with-a-long-descriptive-name-${i}`,
        projectName: PROJECT,
        tags: ['phone', `batch-${i % 3}`],
        config: JSON.stringify({ lr: 0.001 * (i + 1), optimizer: 'adamw' }),
        createdAt: start + i * 600_000,
      });
      const lines = [metricLine(0, { 'train/loss': 1 }), metricLine(1, { 'train/loss': 1 / (i + 2) })];
      await ingestMetricsHttp(base, key, runId, PROJECT, lines);
      if (i % 4 !== 0) {
        const status = i % 4 === 1 ? 'COMPLETED' : i % 4 === 2 ? 'FAILED' : 'TERMINATED';
        expect((await http(base, 'POST', '/api/runs/status/update', { key, json: { runId, status } })).status).toBe(
          200,
        );
      }
    }
    const validate = await http(base, 'GET', '/api/runs/auth/validate', { key });
    org = (validate.body.organization as { slug: string }).slug;
  }, 60_000);

  it('has no horizontal page scroll on the sign-in, projects, runs, leaderboard and empty pages', async () => {
    await withPage(dash, PHONE, async ({ page }) => {
      await page.goto(`${dash.base}/sign-in`);
      await page.getByLabel('API key').waitFor();
      expect(await pageWidth(page)).toBeLessThanOrEqual(390);
      await screenshot(page, 'phone-sign-in');

      await signIn(page, dash.base, dash.key, `/o/${org}/projects`);
      await page.getByRole('link', { name: PROJECT }).waitFor();
      expect(await pageWidth(page)).toBeLessThanOrEqual(390);
      await screenshot(page, 'phone-projects');

      const runs = `/o/${org}/projects/${PROJECT}?col=metric:last:train/loss&col=config:lr`;
      await page.goto(`${dash.base}${runs}`);
      await page.getByText('12 runs').waitFor();
      await page.getByRole('columnheader', { name: /train\/loss/ }).waitFor();
      expect(await pageWidth(page)).toBeLessThanOrEqual(390);
      // The table is wider than the phone and scrolls inside its own box.
      const box = page.getByRole('region', { name: 'Runs table' });
      expect(await box.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
      await screenshot(page, 'phone-runs');

      // Open drop-downs stay within the screen too.
      await page.locator('summary', { hasText: /^Columns/ }).click();
      await page.getByRole('checkbox', { name: 'train/loss last' }).waitFor();
      expect(await pageWidth(page)).toBeLessThanOrEqual(390);
      await screenshot(page, 'phone-runs-columns');
      await page.keyboard.press('Escape');

      await page.getByRole('button', { name: 'Leaderboard' }).click();
      await page.getByRole('region', { name: 'Leaderboard' }).locator('tbody tr').first().waitFor();
      expect(await pageWidth(page)).toBeLessThanOrEqual(390);
      await screenshot(page, 'phone-leaderboard');

      await page.goto(`${dash.base}/o/${org}/projects/nothing-logged-yet`);
      await page.getByRole('button', { name: /^Copy environment/ }).waitFor();
      expect(await pageWidth(page)).toBeLessThanOrEqual(390);
      await screenshot(page, 'phone-empty-project');
    });
  });

  it('draws the runs page in the dark theme', async () => {
    await withPage(
      dash,
      { colorScheme: 'dark', signIn: `/o/${org}/projects/${PROJECT}?col=metric:last:train/loss` },
      async ({ page }) => {
        await page.getByText('12 runs').waitFor();
        const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        expect(background).toBe('rgb(15, 18, 22)');
        await screenshot(page, 'runs-dark');
      },
    );
  });
});
