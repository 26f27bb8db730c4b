/**
 * The session cookie works only for the dashboard's own pages: after signing in, the same
 * cookie sent with another `Origin` (from Node, from Playwright's request context, and from a
 * real page on another port of the same host, which the browser treats as same-site and so
 * sends the SameSite=Strict cookie to) is refused with 403 and changes nothing, while the
 * signed-in page keeps working.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, useDashboard } from '../helpers/browser.js';
import { withPage } from '../helpers/with-page.js';
import { http as call } from '../helpers/http-client.js';

const PROJECT = 'cross-origin-demo';
const EVIL = 'https://evil.example';

describe('cross-origin requests with the session cookie', () => {
  const dash = useDashboard();
  let runId: number;
  let runPath: string;
  let evil: http.Server;
  let evilOrigin: string;

  beforeAll(async () => {
    const created = await call(dash.base, 'POST', '/api/runs/create', {
      key: dash.key,
      json: { runName: 'guarded-run', projectName: PROJECT, tags: ['original'] },
    });
    expect(created.status).toBe(200);
    runId = Number(created.body.runId);
    runPath = new URL(String(created.body.url)).pathname;
    // Another site's page, on another port of the same host (same-site, cross-origin).
    evil = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>evil</title><p>nothing to see</p>');
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    evilOrigin = `http://127.0.0.1:${(evil.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => evil?.close(resolve));
  });

  const tagsOf = async () => (await call(dash.base, 'GET', `/api/runs/details/${runId}`, { key: dash.key })).body.tags;

  it('refuses the cookie from another origin (403) while the page keeps working', async () => {
    // withPage's error check sees this page only: the evil page's failed fetch is logged in its own.
    await withPage(dash, { signIn: runPath }, async ({ page, context }) => {
      await page.getByRole('heading', { level: 1, name: 'guarded-run' }).waitFor();
      const session = (await context.cookies(dash.base)).find((c) => c.name === 'stepwise_session');
      expect(session, 'the session cookie').toBeDefined();
      expect(session!.httpOnly).toBe(true);
      expect(session!.sameSite).toBe('Strict');
      const cookie = `${session!.name}=${session!.value}`;

      // Node with the copied cookie: a read and a write from another origin are refused.
      const read = await fetch(`${dash.base}/api/runs/details/${runId}`, { headers: { cookie, origin: EVIL } });
      expect(read.status).toBe(403);
      const readBody = (await read.json()) as { code?: string };
      expect(readBody.code).toBe('CROSS_ORIGIN');
      const write = await fetch(`${dash.base}/api/runs/tags/update`, {
        method: 'POST',
        headers: { cookie, origin: EVIL, 'content-type': 'application/json' },
        body: JSON.stringify({ runId, tags: ['hacked'] }),
      });
      expect(write.status).toBe(403);
      const crossSite = await fetch(`${dash.base}/api/runs/details/${runId}`, {
        headers: { cookie, 'sec-fetch-site': 'cross-site' },
      });
      expect(crossSite.status).toBe(403);
      // The same cookie from the dashboard's own origin is accepted.
      const own = await fetch(`${dash.base}/api/runs/details/${runId}`, {
        headers: { cookie, origin: dash.base, 'sec-fetch-site': 'same-origin' },
      });
      expect(own.status).toBe(200);

      // Playwright's request context carries the browser's cookies.
      const viaContext = await context.request.post(`${dash.base}/api/runs/notes/update`, {
        headers: { origin: EVIL },
        data: { runId, notes: 'hacked' },
      });
      expect(viaContext.status()).toBe(403);

      // A real page of another origin on this host: the browser sends the cookie (same site)
      // and says where the request comes from; the answer is 403.
      const other = await context.newPage();
      await other.goto(`${evilOrigin}/`);
      const answered = other.waitForResponse((r) => r.url().includes('/api/runs/details/'));
      await other.evaluate(
        ({ url }) => fetch(url, { credentials: 'include', mode: 'no-cors' }).catch(() => undefined),
        { url: `${dash.base}/api/runs/details/${runId}` },
      );
      // (Without the cookie the answer would be 401: a 403 means it came and was refused.)
      expect((await answered).status()).toBe(403);
      await other.close();

      expect(await tagsOf()).toEqual(['original']);
      const notes = (await call(dash.base, 'GET', `/api/runs/details/${runId}`, { key: dash.key })).body.notes;
      expect(notes).toBeNull();

      // The signed-in page still works: it reads and writes with its cookie.
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'guarded-run' }).waitFor();
      await page.getByLabel('New tag').fill('still-mine');
      await page.getByRole('button', { name: 'Add tag' }).click();
      await expect.poll(tagsOf).toEqual(['original', 'still-mine']);
      await screenshot(page, 'cross-origin-page-still-works');
    });
  });
});
