/**
 * The consent page of a tool client's authorization in Chromium (docs/api.md §18): Allow
 * sends the browser on to the client with a code that the SDK exchanges for a working token,
 * Deny with access_denied, a signed-out user signs in first and comes back, and an unknown
 * request says it has expired.
 */
import { exchangeAuthorization, startAuthorization } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot, useDashboard } from '../helpers/browser.js';
import { REDIRECT_URI, registerTestClient } from '../helpers/oauth-flow.js';
import { withPage } from '../helpers/with-page.js';

/** Starts an authorization of a new client; its URL, the verifier and what the SDK needs to exchange. */
async function started(base: string) {
  const { metadata, client } = await registerTestClient(base, 'Consent agent');
  const { authorizationUrl, codeVerifier } = await startAuthorization(`${base}/oauth`, {
    metadata,
    clientInformation: client,
    redirectUrl: REDIRECT_URI,
    scope: 'runs:read runs:write',
    state: 'browser-state',
    resource: new URL(`${base}/mcp`),
  });
  return { metadata, client, authorizationUrl, codeVerifier };
}

/**
 * The URL the browser is sent back to the client with (nothing listens at the redirect URI: the
 * navigation fails after the request is seen; a route cannot catch a redirect's hop).
 */
function catchRedirect(page: Page): Promise<URL> {
  return new Promise((resolve) => {
    page.on('request', (request) => {
      if (request.url().startsWith(REDIRECT_URI)) resolve(new URL(request.url()));
    });
  });
}

describe('the consent page of a tool client', () => {
  const dash = useDashboard();

  it('names the client, its redirect host and the scopes; Allow gives the client a working code', async () => {
    const flow = await started(dash.base);
    await withPage(dash, { signIn: '/' }, async ({ page }) => {
      const back = catchRedirect(page);
      await page.goto(flow.authorizationUrl.href);
      await page.getByRole('heading', { name: 'Allow Consent agent to use Stepwise?' }).waitFor();
      expect(new URL(page.url()).pathname).toMatch(/^\/consent\//);
      const card = page.locator('form');
      expect(await card.textContent()).toContain('127.0.0.1:8976');
      await page.getByText('Read projects, runs, metrics, logs and files').waitFor();
      await page.getByText('Change runs: tags and notes').waitFor();
      await screenshot(page, 'oauth-consent');
      await page.getByRole('button', { name: 'Allow' }).click();
      const url = await back;
      expect(url.searchParams.get('state')).toBe('browser-state');
      const tokens = await exchangeAuthorization(`${dash.base}/oauth`, {
        metadata: flow.metadata,
        clientInformation: flow.client,
        authorizationCode: url.searchParams.get('code') ?? '',
        codeVerifier: flow.codeVerifier,
        redirectUri: REDIRECT_URI,
      });
      const validate = await fetch(`${dash.base}/api/runs/auth/validate`, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      expect(validate.status).toBe(200);
    });
  });

  it('sends the client access_denied on Deny', async () => {
    const flow = await started(dash.base);
    await withPage(dash, { signIn: '/' }, async ({ page }) => {
      const back = catchRedirect(page);
      await page.goto(flow.authorizationUrl.href);
      await page.getByRole('button', { name: 'Deny' }).click();
      const url = await back;
      expect(url.searchParams.get('error')).toBe('access_denied');
      expect(url.searchParams.get('code')).toBe(null);
    });
  });

  it('has a signed-out user sign in first and come back to the consent page', async () => {
    const flow = await started(dash.base);
    await withPage(dash, async ({ page }) => {
      const back = catchRedirect(page);
      await page.goto(flow.authorizationUrl.href);
      await page.waitForURL((url) => url.pathname === '/sign-in');
      expect(new URL(page.url()).searchParams.get('next')).toMatch(/^\/consent\//);
      await page.getByLabel('API key').fill(dash.key);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Allow Consent agent to use Stepwise?' }).waitFor();
      await page.getByRole('button', { name: 'Allow' }).click();
      expect((await back).searchParams.get('code')).toBeTruthy();
    });
  });

  it('says so when the request is unknown or has expired', async () => {
    await withPage(dash, { signIn: '/consent/no-such-request', expectedStatuses: [404] }, async ({ page }) => {
      await page.getByRole('heading', { name: 'This request has expired' }).waitFor();
      await page.getByRole('alert').waitFor();
      await screenshot(page, 'oauth-consent-expired');
    });
  });

  it('lists the allowed clients under Connected apps; Revoke asks first, and none left is the empty state', async () => {
    await withPage(dash, { signIn: '/api-keys' }, async ({ page }) => {
      const section = page.getByRole('region', { name: 'Connected apps' });
      const rows = section.getByRole('row').filter({ hasText: 'Consent agent' });
      await rows.first().waitFor();
      // Allowed twice above (Allow, and after signing in); the denied one is not listed.
      expect(await rows.count()).toBe(2);
      expect(await rows.first().textContent()).toContain('Read projects, runs, metrics, logs and files');
      await screenshot(page, 'oauth-connected-apps');
      for (let left = 1; left >= 0; left--) {
        await section.getByRole('button', { name: 'Revoke Consent agent' }).first().click();
        const dialog = page.getByRole('dialog', { name: 'Revoke “Consent agent”?' });
        await dialog.getByRole('button', { name: 'Revoke app' }).click();
        await section.getByRole('status').filter({ hasText: 'Revoked “Consent agent”.' }).waitFor();
        await expect.poll(() => rows.count()).toBe(left);
      }
      await section.getByText('No connected apps').waitFor();
    });
  });
});
