/**
 * A run's page in Chromium against a spawned server, as its run and session change: the
 * status timeline and the header follow a status change made through the API without
 * reload; a page whose session ended goes to sign-in and back; unknown, foreign and
 * misplaced runs get a "Run not found" page; the Files tab lists files with download links.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot, useDashboard } from '../helpers/browser.js';
import { withPage } from '../helpers/with-page.js';
import { pathOf } from '../helpers/browser-seed.js';
import { http } from '../helpers/http-client.js';
import { createOrgKey } from '../helpers/spawned-server.js';
import { createMainRun, createRun, type Created, PROJECT, setStatus } from './run-page-seed.js';

describe('the run page as its run and session change', () => {
  const dash = useDashboard();
  let main: Created;

  beforeAll(async () => {
    main = await createMainRun(dash);
  });

  it('follows a RUNNING run to COMPLETED without reload: status, duration and timeline', async () => {
    const run = await createRun(dash.base, dash.key, {
      runName: 'live-status-run',
      config: JSON.stringify({ lr: 0.1 }),
    });
    await withPage(dash, { signIn: `${pathOf(run.url)}?tab=overview` }, async ({ page }) => {
      await page.locator('.run-header .status', { hasText: 'RUNNING' }).waitFor();
      const timeline = page.getByRole('list', { name: 'Status timeline' });
      await timeline.getByRole('listitem').first().waitFor();
      expect(await timeline.getByRole('listitem').count()).toBe(1);
      // The page keeps its state: a scroll position and a half-typed note survive the update.
      await page.getByLabel('Notes').fill('typing while it runs');
      await page.evaluate(() => {
        (window as unknown as { marker: string }).marker = 'same page';
      });

      await setStatus(dash.base, dash.key, run.runId, 'COMPLETED');
      const started = Date.now();
      await page.locator('.run-header .status', { hasText: 'COMPLETED' }).waitFor({ timeout: 5_000 });
      expect(Date.now() - started).toBeLessThan(5_000);
      await expect.poll(() => timeline.getByRole('listitem').count(), { timeout: 5_000 }).toBe(2);
      expect(await timeline.getByRole('listitem').nth(1).textContent()).toMatch(/RUNNING.*COMPLETED/);
      expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('same page');
      expect(await page.getByLabel('Notes').inputValue()).toBe('typing while it runs');
      expect(await page.getByRole('tab', { name: 'Overview' }).getAttribute('aria-selected')).toBe('true');
      // The duration stops ticking once the run has ended.
      const duration = page.locator('.run-facts dd .tabular');
      const before = await duration.textContent();
      await page.waitForTimeout(1_500);
      expect(await duration.textContent()).toBe(before);
      await screenshot(page, 'run-status-completed');
    });
  });

  it('sends a page whose session ended to sign-in, and back to the run afterwards', async () => {
    const run = await createRun(dash.base, dash.key, { runName: 'session-ends-here' });
    await withPage(dash, { signIn: `${pathOf(run.url)}?tab=overview` }, async ({ page, context }) => {
      await page.getByRole('heading', { level: 1, name: 'session-ends-here' }).waitFor();
      // The session ends on the server (as Sign out in another tab would); the next poll finds out.
      const ended = await context.request.delete(`${dash.base}/api/session`, {
        headers: { origin: dash.base, connection: 'close' },
      });
      expect(ended.status()).toBe(204);
      await page.waitForURL((url) => url.pathname === '/sign-in', { timeout: 10_000 });
      await page.getByLabel('API key').fill(dash.key);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'session-ends-here' }).waitFor();
      expect(new URL(page.url()).searchParams.get('tab')).toBe('overview');
    });
  });

  it('shows "Run not found" for an unknown SQID, another organization\'s run and the wrong project', async () => {
    // A run of another organization, created with that organization's own key.
    const otherKey = await createOrgKey(dash.server.dataDir, 'other-org', ['--user', 'eve', '--name', 'test']);
    const foreign = await http(dash.base, 'POST', '/api/runs/create', {
      key: otherKey,
      json: { runName: 'secret-run', projectName: PROJECT },
    });
    expect(foreign.status, JSON.stringify(foreign.body)).toBe(200);
    const org = new URL(main.url).pathname.split('/')[2]!;
    const sqid = new URL(main.url).pathname.split('/').pop()!;
    const foreignSqid = new URL(String(foreign.body.url)).pathname.split('/').pop()!;

    // The browser logs the API's 404 answers as console errors; nothing else may fail.
    const notFound = { signIn: `/o/${org}/projects/${PROJECT}/zzzzzzzzzz`, expectedStatuses: [400, 404] };
    await withPage(dash, notFound, async ({ page }) => {
      await page.getByRole('heading', { name: 'Run not found' }).waitFor();
      await page.getByRole('link', { name: `Runs of ${PROJECT}` }).waitFor();
      await page.getByRole('link', { name: 'All projects' }).waitFor();
      await screenshot(page, 'run-not-found');

      await page.goto(`${dash.base}/o/${org}/projects/${PROJECT}/${foreignSqid}`);
      await page.getByRole('heading', { name: 'Run not found' }).waitFor();
      expect(await page.getByText('secret-run').count()).toBe(0);

      await page.goto(`${dash.base}/o/${org}/projects/some-other-project/${sqid}`);
      await page.getByRole('heading', { name: 'Run not found' }).waitFor();
      await page.getByRole('link', { name: PROJECT, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'resnet-baseline' }).waitFor();
    });
  });

  it('lists files with their size and a download link in a Files tab', async () => {
    const run = await createRun(dash.base, dash.key, { runName: 'with-files' });
    const bytes = 'hello, file\n';
    const links = await http(dash.base, 'POST', '/files', {
      key: dash.key,
      json: {
        files: [{ fileName: 'notes.txt', logName: 'artifacts', fileSize: bytes.length, fileType: 'text', step: 3 }],
      },
      headers: { 'x-run-id': String(run.runId), 'x-project-name': PROJECT },
    });
    expect(links.status, JSON.stringify(links.body)).toBe(200);
    const upload = Object.values((links.body.artifacts as Record<string, string>[])[0]!)[0]!;
    const put = await fetch(upload, { method: 'PUT', body: bytes, headers: { 'content-type': 'text/plain' } });
    expect(put.status).toBe(200);

    await withPage(dash, { signIn: `${pathOf(run.url)}?tab=files` }, async ({ page, context }) => {
      const tab = page.getByRole('tab', { name: /Files/ });
      await tab.waitFor();
      expect(await tab.getAttribute('aria-selected')).toBe('true');
      const link = page.getByRole('link', { name: 'notes.txt' });
      await link.waitFor();
      expect(await page.getByRole('row', { name: /notes\.txt/ }).textContent()).toContain('12 B');
      const res = await context.request.get(new URL(String(await link.getAttribute('href')), dash.base).href);
      expect(await res.text()).toBe(bytes);
    });
  });
});
