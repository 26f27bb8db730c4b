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
import { noSidewaysScroll } from '../helpers/browser-seed.js';
import { PHONE, withPage } from '../helpers/with-page.js';

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

  it('fits consent and Connected apps on a phone, where two apps of one name differ by client id', async () => {
    const flow = await started(dash.base);
    await withPage(dash, { ...PHONE, signIn: '/' }, async ({ page }) => {
      await page.goto(flow.authorizationUrl.href);
      await page.getByRole('heading', { name: 'Allow Consent agent to use Stepwise?' }).waitFor();
      await noSidewaysScroll(page);
      const allow = (await page.getByRole('button', { name: 'Allow' }).boundingBox())!;
      expect(allow.x + allow.width).toBeLessThanOrEqual(PHONE.width);
      await screenshot(page, 'oauth-consent-phone');

      await page.goto(`${dash.base}/api-keys`);
      const section = page.getByRole('region', { name: 'Connected apps' });
      const rows = section.getByRole('row').filter({ hasText: 'Consent agent' });
      await rows.first().waitFor();
      const ids = await section
        .locator('.api-keys-client-id')
        .evaluateAll((els) => els.map((e) => ({ short: e.textContent ?? '', title: e.getAttribute('title') ?? '' })));
      expect(ids).toHaveLength(2);
      expect(new Set(ids.map((id) => id.short)).size).toBe(2);
      for (const id of ids) {
        expect(id.title.replace('Client id ', '').startsWith(id.short.replace('…', ''))).toBe(true);
        await section.getByRole('button', { name: `Revoke Consent agent (${id.short})` }).waitFor();
      }
      await noSidewaysScroll(page);
      // Revoke sits beside the name at the top of each card, not under the last value.
      const name = (await rows.first().locator('.api-keys-name').boundingBox())!;
      const revoke = (await rows.first().getByRole('button').boundingBox())!;
      expect(revoke.y).toBeLessThan(name.y + name.height);
      await screenshot(page, 'oauth-connected-apps-phone');
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
