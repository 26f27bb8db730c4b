/**
 * A run's page in Chromium against a spawned server: reached through the `url` of
 * runs/create it shows name, display id and status; tags and notes are edited and stored;
 * the config tree opens and searches; the status timeline and the header follow a status
 * change made through the API without reload; a fork links to its parent by name; unknown,
 * foreign and misplaced runs get a "Run not found" page; tabs work by keyboard and live in
 * the URL; phone width and the dark theme.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { openPage, screenshot, signIn, useDashboard } from '../helpers/browser.js';
import { createRunHttp, noSidewaysScroll, pathOf, realErrors, type SeededRun } from '../helpers/browser-seed.js';
import { http } from '../helpers/http-client.js';
import { createOrgKey } from '../helpers/spawned-server.js';

const PROJECT = 'run-page-demo';

const CONFIG = {
  lr: 0.0003,
  batch_size: 64,
  model: { arch: 'resnet', depth: 50, blocks: { stem: { channels: 64 }, head: 'linear' } },
  schedule: Array.from({ length: 60 }, (_, i) => i * 10),
  dataset: 'imagenet-1k',
};

type Created = SeededRun;

const createRun = (base: string, key: string, body: Record<string, unknown>): Promise<Created> =>
  createRunHttp(base, key, { projectName: PROJECT, ...body });

async function setStatus(base: string, key: string, runId: number, status: string): Promise<void> {
  const res = await http(base, 'POST', '/api/runs/status/update', { key, json: { runId, status } });
  expect(res.status).toBe(200);
}

async function details(base: string, key: string, runId: number): Promise<Record<string, unknown>> {
  const res = await http(base, 'GET', `/api/runs/details/${runId}`, { key });
  expect(res.status).toBe(200);
  return res.body;
}

describe('the run page', () => {
  const dash = useDashboard();
  let main: Created;

  beforeAll(async () => {
    main = await createRun(dash.base, dash.key, {
      runName: 'resnet-baseline',
      tags: ['baseline', 'gpu'],
      config: JSON.stringify(CONFIG),
      systemMetadata: JSON.stringify({ hostname: 'trainer-7', gpu: { name: 'A100', count: 8 }, python: '3.11.9' }),
    });
  });

  it('shows name, display id and status when reached through the url of runs/create', async () => {
    const watch = await openPage(dash.browser);
    const { page, context, errors } = watch;
    try {
      await signIn(page, dash.base, dash.key, pathOf(main.url));
      expect(new URL(page.url()).pathname).toBe(pathOf(main.url));
      await expect.poll(() => page.getByRole('heading', { level: 1, name: 'resnet-baseline' }).count()).toBe(1);
      await page.getByText(main.displayId, { exact: true }).first().waitFor();
      await page.locator('.run-header .status', { hasText: 'RUNNING' }).waitFor();
      // Charts is the first tab; the others are there, and the choice lands in the URL.
      const tabs = page.getByRole('tab');
      expect(await tabs.allTextContents()).toEqual(['Charts', 'Logs', 'Overview', 'Model graph']);
      expect(await page.getByRole('tab', { name: 'Charts' }).getAttribute('aria-selected')).toBe('true');
      // Arrow keys move between tabs.
      await page.getByRole('tab', { name: 'Charts' }).focus();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => page.getByRole('tab', { name: 'Logs' }).getAttribute('aria-selected')).toBe('true');
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => page.getByRole('tab', { name: 'Overview' }).getAttribute('aria-selected')).toBe('true');
      await page.waitForURL((url) => url.searchParams.get('tab') === 'overview');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Overview');
      await page.getByRole('tabpanel', { name: 'Overview' }).waitFor();
      await page.getByLabel('Search config').waitFor();
      await screenshot(page, 'run-overview');
      // A reload keeps the tab.
      await page.reload();
      await page.getByLabel('Search config').waitFor();
      expect(await page.getByRole('tab', { name: 'Overview' }).getAttribute('aria-selected')).toBe('true');
      expect(realErrors(errors)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('adds and removes tags and saves notes, and the API returns them', async () => {
    const { page, context, errors } = await openPage(dash.browser);
    try {
      await signIn(page, dash.base, dash.key, `${pathOf(main.url)}?tab=overview`);
      await page.getByRole('button', { name: 'Remove tag gpu' }).waitFor();
      await page.getByLabel('New tag').fill('promising');
      await page.getByRole('button', { name: 'Add tag' }).click();
      await page.getByRole('button', { name: 'Remove tag promising' }).waitFor();
      await expect
        .poll(async () => (await details(dash.base, dash.key, main.runId)).tags)
        .toEqual(['baseline', 'gpu', 'promising']);
      await page.getByRole('button', { name: 'Remove tag gpu' }).click();
      await expect
        .poll(async () => (await details(dash.base, dash.key, main.runId)).tags)
        .toEqual(['baseline', 'promising']);
      await expect.poll(() => page.getByRole('button', { name: 'Remove tag gpu' }).count()).toBe(0);
      // A duplicate is refused in the page.
      await page.getByLabel('New tag').fill('baseline');
      await page.keyboard.press('Enter');
      await page.getByRole('alert').filter({ hasText: 'already has the tag' }).waitFor();

      const notes = page.getByLabel('Notes');
      const save = page.getByRole('button', { name: 'Save notes' });
      expect(await save.isDisabled()).toBe(true);
      await notes.fill('Warmup of 5 epochs helps.\nTry label smoothing next.');
      await save.click();
      await page.getByRole('status').filter({ hasText: 'Notes saved' }).waitFor();
      await expect
        .poll(async () => (await details(dash.base, dash.key, main.runId)).notes)
        .toBe('Warmup of 5 epochs helps.\nTry label smoothing next.');
      // After a reload the page shows what was stored.
      await page.reload();
      await expect
        .poll(() => page.getByLabel('Notes').inputValue())
        .toBe('Warmup of 5 epochs helps.\nTry label smoothing next.');
      expect(await page.getByRole('button', { name: 'Remove tag promising' }).count()).toBe(1);
      expect(realErrors(errors)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('opens nested config keys, searches them and shows long arrays in parts', async () => {
    const { page, context, errors } = await openPage(dash.browser);
    try {
      await signIn(page, dash.base, dash.key, `${pathOf(main.url)}?tab=overview`);
      const config = page.getByRole('region', { name: 'Config' });
      const model = config.getByRole('button', { name: 'model' });
      await model.waitFor();
      // Top-level objects start open, deeper ones closed.
      expect(await model.getAttribute('aria-expanded')).toBe('true');
      const blocks = config.getByRole('button', { name: 'blocks' });
      expect(await blocks.getAttribute('aria-expanded')).toBe('false');
      expect(await config.getByText('"linear"').count()).toBe(0);
      await blocks.click();
      expect(await blocks.getAttribute('aria-expanded')).toBe('true');
      await config.getByText('"linear"').waitFor();
      // The 60-item schedule shows 20 items, then more on request.
      const schedule = config.getByRole('button', { name: 'schedule' });
      if ((await schedule.getAttribute('aria-expanded')) !== 'true') await schedule.click();
      await config.getByText('[60 items]').waitFor();
      await config.getByRole('button', { name: /Show more \(40 more\)/ }).click();
      await config.getByText('590', { exact: true }).waitFor();

      // Search: only matching keys and values stay, and the way to them opens.
      await config.getByLabel('Search config').fill('channels');
      await config.getByRole('status').filter({ hasText: '1 match' }).waitFor();
      expect(await config.getByRole('button', { name: 'stem' }).getAttribute('aria-expanded')).toBe('true');
      expect(await config.getByText('batch_size').count()).toBe(0);
      await config.getByLabel('Search config').fill('imagenet');
      await config.getByText('dataset').waitFor();
      expect(await config.getByRole('button', { name: 'model' }).count()).toBe(0);
      await config.getByLabel('Search config').fill('no-such-thing');
      await config.getByText('No keys or values match “no-such-thing”').waitFor();
      await config.getByLabel('Search config').fill('');

      // System metadata has its own tree and search.
      const system = page.getByRole('region', { name: 'System metadata' });
      await system.getByText('"trainer-7"').waitFor();
      await system.getByLabel('Search system metadata').fill('a100');
      await system.getByText('"A100"').waitFor();
      await screenshot(page, 'run-config-search');
      expect(realErrors(errors)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('follows a RUNNING run to COMPLETED without reload: status, duration and timeline', async () => {
    const run = await createRun(dash.base, dash.key, {
      runName: 'live-status-run',
      config: JSON.stringify({ lr: 0.1 }),
    });
    const { page, context, errors } = await openPage(dash.browser);
    try {
      await signIn(page, dash.base, dash.key, `${pathOf(run.url)}?tab=overview`);
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
      expect(realErrors(errors)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('sends a page whose session ended to sign-in, and back to the run afterwards', async () => {
    const run = await createRun(dash.base, dash.key, { runName: 'session-ends-here' });
    const { page, context, errors } = await openPage(dash.browser);
    try {
      await signIn(page, dash.base, dash.key, `${pathOf(run.url)}?tab=overview`);
      await page.getByRole('heading', { level: 1, name: 'session-ends-here' }).waitFor();
      // The session ends on the server (as Sign out in another tab would); the next poll finds out.
      const ended = await context.request.delete(`${dash.base}/api/session`, { headers: { origin: dash.base } });
      expect(ended.status()).toBe(204);
      await page.waitForURL((url) => url.pathname === '/sign-in', { timeout: 10_000 });
      await page.getByLabel('API key').fill(dash.key);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'session-ends-here' }).waitFor();
      expect(new URL(page.url()).searchParams.get('tab')).toBe('overview');
      expect(realErrors(errors)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('links a fork to its parent by name, and the link opens the parent', async () => {
    const fork = await createRun(dash.base, dash.key, {
      runName: 'resnet-fork-lr',
      forkRunId: main.runId,
      forkStep: 0,
    });
    const { page, context, errors } = await openPage(dash.browser);
    try {
      await signIn(page, dash.base, dash.key, pathOf(fork.url));
      await page.getByRole('heading', { level: 1, name: 'resnet-fork-lr' }).waitFor();
      const parent = page.getByRole('link', { name: 'resnet-baseline' });
      await parent.waitFor();
      expect(await page.locator('.run-facts').textContent()).toContain('at step 0');
      await screenshot(page, 'run-fork');
      await parent.click();
      await page.getByRole('heading', { level: 1, name: 'resnet-baseline' }).waitFor();
      expect(new URL(page.url()).pathname).toBe(pathOf(main.url));
      expect(realErrors(errors)).toEqual([]);
    } finally {
      await context.close();
    }
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

    const { page, context, errors } = await openPage(dash.browser);
    try {
      await signIn(page, dash.base, dash.key, `/o/${org}/projects/${PROJECT}/zzzzzzzzzz`);
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
      // The browser logs the API's 404 answers as console errors; nothing else may fail.
      expect(errors.filter((e) => !/status of 40[014]/.test(e))).toEqual([]);
    } finally {
      await context.close();
    }
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

    const { page, context, errors } = await openPage(dash.browser);
    try {
      await signIn(page, dash.base, dash.key, `${pathOf(run.url)}?tab=files`);
      const tab = page.getByRole('tab', { name: /Files/ });
      await tab.waitFor();
      expect(await tab.getAttribute('aria-selected')).toBe('true');
      const link = page.getByRole('link', { name: 'notes.txt' });
      await link.waitFor();
      expect(await page.getByRole('row', { name: /notes\.txt/ }).textContent()).toContain('12 B');
      const res = await context.request.get(new URL(String(await link.getAttribute('href')), dash.base).href);
      expect(await res.text()).toBe(bytes);
      expect(realErrors(errors)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('fits a phone screen without sideways scrolling, in the dark theme too', async () => {
    const phone = await openPage(dash.browser, { width: 390, height: 844 });
    const dark = await openPage(dash.browser, { colorScheme: 'dark' });
    try {
      await signIn(phone.page, dash.base, dash.key, `${pathOf(main.url)}?tab=overview`);
      await phone.page.getByLabel('Search config').waitFor();
      await noSidewaysScroll(phone.page);
      await screenshot(phone.page, 'run-phone');
      await signIn(dark.page, dash.base, dash.key, `${pathOf(main.url)}?tab=overview`);
      await dark.page.getByLabel('Search config').waitFor();
      await screenshot(dark.page, 'run-overview-dark');
      expect(realErrors([...phone.errors, ...dark.errors])).toEqual([]);
    } finally {
      await phone.context.close();
      await dark.context.close();
    }
  });
});
