/**
 * The notification bell in Chromium: it counts an alert posted while the page is open and
 * opens the alert's run; opening it marks the notifications read.
 */
import { describe, expect, it } from 'vitest';
import { encodeRunId } from '../../src/domain/sqid.js';
import { screenshot, useDashboard } from '../helpers/browser.js';
import { http, ingestHttp } from '../helpers/http-client.js';
import { withPage } from '../helpers/with-page.js';

describe('the notification bell', () => {
  const dash = useDashboard();

  it('counts a new alert and opens its run', async () => {
    const created = await http(dash.base, 'POST', '/api/runs/create', {
      key: dash.key,
      json: { runName: 'bell-run', projectName: 'bells' },
    });
    expect(created.status).toBe(200);
    const runId = created.body.runId as number;
    await withPage(dash, { signIn: '/' }, async ({ page }) => {
      const bell = page.getByRole('button', { name: 'Notifications', exact: true });
      await bell.waitFor();
      expect((await bell.textContent())?.replace(/\D/g, '')).toBe('');
      const alert = await http(dash.base, 'POST', '/api/runs/alert', {
        key: dash.key,
        json: { runId, alert: { title: 'Loss diverged', body: 'loss is NaN', level: 'ERROR' } },
      });
      expect(alert.status).toBe(200);
      // The bell asks again every 10 s.
      await page.waitForFunction(() => document.querySelector('.bell-number')?.textContent === '1', undefined, {
        timeout: 15_000,
      });
      expect(await page.getByText('1 unread notification').count()).toBe(1);
      await bell.click();
      const link = page
        .getByRole('region', { name: 'Notifications list' })
        .getByRole('link', { name: 'Loss diverged' });
      await link.waitFor();
      await screenshot(page, 'notification-bell');
      await link.click();
      await page.waitForURL((url) => url.pathname.endsWith(`/projects/bells/${encodeRunId(runId)}`));
      await page.getByText('bell-run').first().waitFor();
      await page.waitForFunction(() => document.querySelector('.bell-number')?.textContent === '');
    });
  });
  it('adds a project alert rule in its editor; a point crossing it rings the bell', async () => {
    const created = await http(dash.base, 'POST', '/api/runs/create', {
      key: dash.key,
      json: { runName: 'rule-run', projectName: 'ruled' },
    });
    const runId = created.body.runId as number;
    await withPage(dash, { signIn: '/' }, async ({ page }) => {
      await page.waitForURL((url) => /^\/o\/[^/]+\/projects$/.test(url.pathname));
      const org = new URL(page.url()).pathname.split('/')[2]!;
      await page.goto(`${dash.base}/o/${org}/projects/ruled`);
      await page.getByRole('button', { name: 'Alert rules' }).click();
      const editor = page.getByRole('region', { name: 'Alert rules' });
      await editor.getByLabel('Metric').fill('val/loss');
      await editor.getByLabel('Threshold').fill('5');
      await editor.getByRole('button', { name: 'Add rule' }).click();
      await editor.getByText('val/loss > 5').waitFor();
      await screenshot(page, 'alert-rules-editor');
      const line = JSON.stringify({ time: Date.now(), step: 7, data: { 'val/loss': 9 } });
      expect((await ingestHttp(dash.base, dash.key, 'metrics', runId, 'ruled', `${line}\n`)).status).toBe(200);
      await page.waitForFunction(() => document.querySelector('.bell-number')?.textContent === '1', undefined, {
        timeout: 15_000,
      });
      await page.getByRole('button', { name: 'Notifications', exact: true }).click();
      await page.getByRole('link', { name: 'val/loss > 5' }).click();
      await page.waitForURL((url) => url.pathname.endsWith(`/projects/ruled/${encodeRunId(runId)}`));
    });
  });
});
