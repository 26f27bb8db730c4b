/**
 * Single sign-on end to end (issue 29): a real OpenID Connect provider (`oidc-provider`) and a
 * spawned `stepwise serve` configured for it on loopback; in Chromium a person clicks "Sign in
 * with SSO", signs in at the provider and lands on the dashboard signed in as that user, a
 * member of the default organization. A second person whose email the provider has not
 * verified is refused with a page that says so.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser.js';
import { ACCOUNTS, startTestProvider, type TestProvider } from '../helpers/oidc-test-provider.js';
import { freePort, spawnServer, type SpawnedServer } from '../helpers/spawned-server.js';

let provider: TestProvider;
let server: SpawnedServer;
let browser: Browser;

beforeAll(async () => {
  const port = await freePort();
  provider = await startTestProvider(`http://127.0.0.1:${port}/api/auth/oidc/callback`);
  server = await spawnServer([], {
    port,
    env: {
      STEPWISE_OIDC_ISSUER: provider.issuer,
      STEPWISE_OIDC_CLIENT_ID: provider.clientId,
      STEPWISE_OIDC_CLIENT_SECRET: provider.clientSecret,
    },
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await provider?.close();
});

/** From the dashboard's sign-in page through the provider's login and consent forms. */
async function signInWithSso(page: Page, login: string): Promise<void> {
  await page.goto(`${server.baseUrl}/sign-in`);
  await page.getByRole('link', { name: 'Sign in with SSO' }).click();
  await page.waitForURL((url) => url.href.startsWith(provider.issuer));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL((url) => url.href.startsWith(server.baseUrl));
}

describe('OpenID Connect sign-in', () => {
  it('signs a verified user in as a member and lands on the dashboard', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await signInWithSso(page, 'ann');
      // Signed in, the dashboard opens the organization's projects (signed out, /sign-in).
      await page.waitForURL(`${server.baseUrl}/o/default/projects`);
      await page.waitForLoadState('networkidle');
      expect(new URL(page.url()).pathname).toBe('/o/default/projects');
      const me = await page.evaluate(async () => {
        const res = await fetch('/api/account');
        return { status: res.status, body: (await res.json()) as unknown };
      });
      expect(me.status).toBe(200);
      expect(JSON.stringify(me.body)).toContain(ACCOUNTS.ann!.email);
      const members = await fetch(`${server.baseUrl}/api/members`, {
        headers: { authorization: `Bearer ${server.key}` },
      }).then((r) => r.json() as Promise<{ members: { email: string | null; role: string }[] }>);
      expect(members.members.find((m) => m.email === ACCOUNTS.ann!.email)?.role).toBe('member');
    } finally {
      await context.close();
    }
  });

  it('refuses an email the provider has not verified, with a page that says so', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await signInWithSso(page, 'bob');
      await expect(page.getByRole('alert').textContent()).resolves.toContain('has not verified');
      const session = await page.evaluate(async () => (await fetch('/api/runs/auth/validate')).status);
      expect(session).toBe(401);
    } finally {
      await context.close();
    }
  });
});
