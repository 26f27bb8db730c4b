/**
 * The API keys page in Chromium: /api-keys opened signed out comes back after sign-in (the
 * page `pluto.login()` opens); a key created there is shown once, copies, works against the
 * API with Bearer, and stops working within about two seconds of Revoke; revoking the
 * session's own key signs out; the list's error state; phone width and the dark theme.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot, signIn, signInByForm, useDashboard } from '../helpers/browser.js';
import { PHONE, withPage } from '../helpers/with-page.js';
import { http, pause } from '../helpers/http-client.js';

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe('the API keys page', () => {
  const dash = useDashboard();
  const validate = (key: string) => http(dash.base, 'GET', '/api/runs/auth/validate', { key });
  /**
   * Calls auth/validate with the key until it answers other than 200 and returns that answer;
   * fails if a call sent `limitMs` or more after `since` is still accepted. Calls are timed when
   * sent: the page's own waits before the first call, and a slow answer, can take long on a
   * loaded machine without the key having been accepted any longer.
   */
  const refused = async (key: string, since: number, limitMs: number) => {
    for (;;) {
      const sent = Date.now();
      const answer = await validate(key);
      if (answer.status !== 200) return answer;
      expect(sent - since, 'still accepted').toBeLessThan(limitMs);
      await pause(100);
    }
  };

  it('comes back to /api-keys after sign-in; a created key works with Bearer until it is revoked', async () => {
    await withPage(dash, async ({ page, context }) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: dash.base });
      await signInByForm(page, dash.base, dash.key, '/api-keys');
      expect(new URL(page.url()).pathname).toBe('/api-keys');
      await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
      expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).count()).toBe(
        1,
      );
      // The bootstrap key this session signed in with is listed and marked.
      await page.getByRole('row').filter({ hasText: 'this session' }).waitFor();

      await page.getByLabel('Key name').fill('browser-key');
      await page.getByRole('button', { name: 'Create key' }).click();
      const field = page.getByLabel('New API key');
      await field.waitFor();
      expect(await field.getAttribute('readonly')).not.toBeNull();
      const key = await field.inputValue();
      expect(key).toMatch(/^sw_[A-Za-z0-9_-]{43}$/);
      expect(await page.getByText('it will not be shown again').count()).toBe(1);

      await page.getByRole('button', { name: 'Copy', exact: true }).click();
      await page.getByText('Copied to the clipboard.').waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

      // The key works against the API at once.
      const ok = await validate(key);
      expect(ok.status).toBe(200);
      const row = page.getByRole('row').filter({ hasText: 'browser-key' });
      await row.getByText('Active').waitFor();
      expect(await row.textContent()).toContain(key.slice(0, 11));
      expect(await row.textContent()).not.toContain(key.slice(11));
      await screenshot(page, 'api-keys');

      // Cancel (Escape) keeps the key.
      await page.getByRole('button', { name: 'Revoke browser-key' }).click();
      const dialog = page.getByRole('dialog', { name: 'Revoke “browser-key”?' });
      await dialog.waitFor();
      await screenshot(page, 'api-keys-revoke-dialog');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      expect((await validate(key)).status).toBe(200);

      await page.getByRole('button', { name: 'Revoke browser-key' }).click();
      await dialog.getByRole('button', { name: 'Revoke key' }).click();
      const revokedAt = Date.now();
      await dialog.waitFor({ state: 'hidden' });
      await row.getByText('Revoked').waitFor();
      expect(await page.getByRole('button', { name: 'Revoke browser-key' }).count()).toBe(0);
      expect(await page.getByRole('status').filter({ hasText: 'Revoked “browser-key”.' }).count()).toBe(1);
      const answer = await refused(key, revokedAt, 2000);
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ error: 'API key has been revoked', code: 'UNAUTHORIZED' });
      // The session's own key still works: only the revoked one stopped.
      expect((await validate(dash.key)).status).toBe(200);
      // The new key was shown once: gone after a reload.
      await page.reload();
      await page.getByRole('row').filter({ hasText: 'browser-key' }).waitFor();
      expect(await page.getByLabel('New API key').count()).toBe(0);
      expect(await page.content()).not.toContain(key.slice(11));
    });
  });

  it('revoking the key the session signed in with warns, then signs out', async () => {
    const made = await http(dash.base, 'POST', '/api/keys', {
      key: dash.key,
      json: { name: 'own-session-key' },
    });
    expect(made.status).toBe(200);
    await withPage(dash, async ({ page }) => {
      await signIn(page, dash.base, String(made.body.key), '/api-keys');
      const row = page.getByRole('row').filter({ hasText: 'own-session-key' });
      await row.getByText('this session').waitFor();
      await row.getByRole('button', { name: 'Revoke own-session-key' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText('revoking it signs you out').waitFor();
      await dialog.getByRole('button', { name: 'Revoke key' }).click();
      const revokedAt = Date.now();
      await page
        .waitForURL((url) => url.pathname === '/sign-in')
        .catch(async (err: Error) => {
          // Say where the page stayed (a CI run once timed out here), then fail as before.
          const alerts = await page.getByRole('alert').allTextContents();
          const open = await dialog.isVisible();
          throw new Error(
            `${err.message}\nstill at ${page.url()}, dialog open: ${open}, alerts: ${JSON.stringify(alerts)}`,
          );
        });
      expect(new URL(page.url()).searchParams.get('next')).toBe('/api-keys');
      await page.getByLabel('API key').waitFor();
      expect((await refused(String(made.body.key), revokedAt, 2500)).status).toBe(401);
    });
  });

  it('shows an alert with Try again when the keys cannot be read, and refuses a blank name', async () => {
    await withPage(dash, { expectedStatuses: [400, 500] }, async ({ page }) => {
      let fail = true;
      await page.route('**/api/keys', (route) =>
        fail && route.request().method() === 'GET'
          ? route.fulfill({
              status: 500,
              contentType: 'application/json',
              body: JSON.stringify({ error: 'The keys could not be read', code: 'INTERNAL' }),
            })
          : route.continue(),
      );
      await signIn(page, dash.base, dash.key, '/api-keys');
      const alert = page.getByRole('alert').filter({ hasText: 'The keys could not be read' });
      await alert.waitFor();
      fail = false;
      await alert.getByRole('button', { name: 'Try again' }).click();
      await page.getByRole('row').filter({ hasText: 'this session' }).waitFor();

      await page.getByLabel('Key name').fill('   ');
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.getByRole('alert').filter({ hasText: 'printable characters' }).waitFor();
      expect(await page.getByLabel('New API key').count()).toBe(0);
    });
  });

  it('fits a 390 px phone in the dark theme, with an expiry date', async () => {
    await withPage(dash, { ...PHONE, colorScheme: 'dark', signIn: '/api-keys' }, async ({ page }) => {
      await page.getByLabel('Key name').fill('a phone key with a fairly long descriptive name');
      const next = new Date(Date.now() + 30 * 86_400_000);
      const day = `${next.getFullYear()}-${String(next.getMonth() + 1).padStart(2, '0')}-${String(next.getDate()).padStart(2, '0')}`;
      await page.getByLabel('Expires').fill(day);
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.getByLabel('New API key').waitFor();
      const row = page.getByRole('row').filter({ hasText: 'a phone key with a fairly long' });
      await row.getByText(day).waitFor();
      expect(await pageWidth(page)).toBeLessThanOrEqual(390);
      await screenshot(page, 'api-keys-phone');
      const listed = await http(dash.base, 'GET', '/api/keys', { key: dash.key });
      const stored = (listed.body.keys as { name: string; expiresAt: string }[]).find((k) =>
        k.name.startsWith('a phone key'),
      );
      // The key works through the chosen day, local time.
      expect(new Date(stored!.expiresAt).getDate()).toBe(next.getDate());
    });
  });
});
