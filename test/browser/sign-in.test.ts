/**
 * Signing in and out of the dashboard in Chromium: a wrong key shows an alert, a right key
 * lands on the deep link that was opened signed out, Sign out ends the session.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot, signInByForm, useDashboard } from '../helpers/browser.js';
import { withPage } from '../helpers/with-page.js';
import { createRunHttp } from '../helpers/browser-seed.js';
import { http } from '../helpers/http-client.js';

describe('signing in to the dashboard', () => {
  const dash = useDashboard();
  let runPath: string;

  beforeAll(async () => {
    const created = await createRunHttp(dash.base, dash.key, {
      runName: 'deep-link-run',
      projectName: 'sign-in-demo',
    });
    runPath = created.path;
  });

  it('shows an alert for a wrong key and stays on the sign-in page', async () => {
    await withPage(dash, async ({ page }) => {
      await page.goto(`${dash.base}/`);
      await page.waitForURL((url) => url.pathname === '/sign-in');
      const field = page.getByLabel('API key');
      expect(await field.getAttribute('type')).toBe('password');
      expect(await field.getAttribute('autocomplete')).toBe('off');
      await screenshot(page, 'sign-in');

      await field.fill('sw_not_a_real_key_0123456789');
      await page.getByRole('button', { name: 'Sign in' }).click();
      const alert = page.getByRole('alert');
      await alert.waitFor();
      expect((await alert.textContent())?.trim()).not.toBe('');
      expect(new URL(page.url()).pathname).toBe('/sign-in');
      await screenshot(page, 'sign-in-error');
      // The key is never kept by the page.
      const stored = await page.evaluate(
        () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
      );
      expect(stored).not.toContain('sw_not_a_real_key');
    });
  });

  it('lands on the run page that was opened signed out, and Sign out ends the session', async () => {
    await withPage(dash, async ({ page }) => {
      await signInByForm(page, dash.base, dash.key, runPath);
      expect(new URL(page.url()).pathname).toBe(runPath);
      const stored = await page.evaluate(
        () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
      );
      expect(stored).not.toContain(dash.key);

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL((url) => url.pathname === '/sign-in');
      await page.getByLabel('API key').waitFor();

      // The session is gone on the server: a protected page sends the browser back to sign-in.
      await page.goto(`${dash.base}/o/anything/projects`);
      await page.waitForURL((url) => url.pathname === '/sign-in');
      expect(new URL(page.url()).searchParams.get('next')).toBe('/o/anything/projects');
    });
  });

  it('sends the page to sign-in when its session ends elsewhere', async () => {
    await withPage(dash, async ({ page }) => {
      const validate = await http(dash.base, 'GET', '/api/runs/auth/validate', { key: dash.key });
      const org = (validate.body.organization as { slug: string }).slug;
      await signInByForm(page, dash.base, dash.key, `/o/${org}/projects/sign-in-demo`);
      await page.getByRole('link', { name: 'deep-link-run' }).waitFor();
      // Signed out by another tab: the page still believes in its session until a read fails.
      const status = await page.evaluate(async () => (await fetch('/api/session', { method: 'DELETE' })).status);
      expect(status).toBe(204);
      await page.getByLabel('Search runs').fill('deep');
      await page.waitForURL((url) => url.pathname === '/sign-in');
      expect(new URL(page.url()).searchParams.get('next')).toBe(`/o/${org}/projects/sign-in-demo?q=deep`);
    });
  });

  it('lands on a project page deep link, and goes straight on when already signed in', async () => {
    await withPage(dash, async ({ page }) => {
      const validate = await http(dash.base, 'GET', '/api/runs/auth/validate', { key: dash.key });
      const org = (validate.body.organization as { slug: string }).slug;
      const target = `/o/${org}/projects/sign-in-demo?q=deep`;
      await signInByForm(page, dash.base, dash.key, target);
      const url = new URL(page.url());
      expect(url.pathname + url.search).toBe(target);
      await page.getByRole('heading', { name: 'sign-in-demo' }).waitFor();

      // Signed in already: the sign-in page goes on to `next` (and never off-site).
      await page.goto(`${dash.base}/sign-in?next=${encodeURIComponent('//example.com/x')}`);
      await page.waitForURL((u) => u.pathname === `/o/${org}/projects`);
    });
  });
});
