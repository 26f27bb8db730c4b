/**
 * The Webhooks page in Chromium: a webhook created there shows its signing secret once, is
 * listed, queues a test delivery that its deliveries table shows, and can be deleted.
 */
import { describe, expect, it } from 'vitest';
import { screenshot, useDashboard } from '../helpers/browser.js';
import { withPage } from '../helpers/with-page.js';

describe('the Webhooks page', () => {
  const dash = useDashboard();

  it('creates a webhook, shows its secret once, sends a test and lists its deliveries', async () => {
    await withPage(dash, { signIn: '/webhooks' }, async ({ page }) => {
      await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
      // A public address (no delivery runs to it in this test: it stays pending).
      await page.getByLabel('Webhook URL').fill('http://93.184.216.34/stepwise-hook');
      await page.getByLabel('alert_rule.triggered').check();
      await page.getByRole('button', { name: 'Create webhook' }).click();
      const secret = page.getByLabel('Signing secret');
      await secret.waitFor();
      expect(await secret.inputValue()).toMatch(/^whsec_/);
      await page.getByText('http://93.184.216.34/stepwise-hook').waitFor();
      await page.getByRole('button', { name: 'Send test' }).click();
      const table = page.getByRole('table', { name: /Deliveries of webhook/ });
      await table.getByRole('cell', { name: 'webhook.test' }).waitFor();
      await screenshot(page, 'webhooks-page');
      await page.reload();
      await page.getByText('http://93.184.216.34/stepwise-hook').waitFor();
      expect(await page.getByLabel('Signing secret').count()).toBe(0);
      await page.getByRole('button', { name: 'Delete' }).click();
      await page.getByText('No webhooks yet').waitFor();
    });
  });
});
