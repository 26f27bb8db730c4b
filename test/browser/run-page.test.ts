/**
 * A run's page in Chromium against a spawned server: reached through the `url` of
 * runs/create it shows name, display id and status; tags and notes are edited and stored;
 * the config tree opens and searches; a fork links to its parent by name; phone width and
 * the dark theme. The page's states are in run-page-states.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot, useDashboard } from '../helpers/browser.js';
import { PHONE, withPage } from '../helpers/with-page.js';
import { noSidewaysScroll, pathOf } from '../helpers/browser-seed.js';
import { createMainRun, createRun, type Created, details } from './run-page-seed.js';

describe('the run page', () => {
  const dash = useDashboard();
  let main: Created;

  beforeAll(async () => {
    main = await createMainRun(dash);
  });

  it('shows name, display id and status when reached through the url of runs/create', async () => {
    await withPage(dash, { signIn: pathOf(main.url) }, async ({ page }) => {
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
    });
  });

  it('adds and removes tags and saves notes, and the API returns them', async () => {
    await withPage(dash, { signIn: `${pathOf(main.url)}?tab=overview` }, async ({ page }) => {
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
    });
  });

  it('opens nested config keys, searches them and shows long arrays in parts', async () => {
    await withPage(dash, { signIn: `${pathOf(main.url)}?tab=overview` }, async ({ page }) => {
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
    });
  });

  it('links a fork to its parent by name, and the link opens the parent', async () => {
    const fork = await createRun(dash.base, dash.key, {
      runName: 'resnet-fork-lr',
      forkRunId: main.runId,
      forkStep: 0,
    });
    await withPage(dash, { signIn: pathOf(fork.url) }, async ({ page }) => {
      await page.getByRole('heading', { level: 1, name: 'resnet-fork-lr' }).waitFor();
      const parent = page.getByRole('link', { name: 'resnet-baseline' });
      await parent.waitFor();
      expect(await page.locator('.run-facts').textContent()).toContain('at step 0');
      await screenshot(page, 'run-fork');
      await parent.click();
      await page.getByRole('heading', { level: 1, name: 'resnet-baseline' }).waitFor();
      expect(new URL(page.url()).pathname).toBe(pathOf(main.url));
    });
  });

  it('fits a phone screen without sideways scrolling, in the dark theme too', async () => {
    const overview = `${pathOf(main.url)}?tab=overview`;
    await withPage(dash, { ...PHONE, signIn: overview }, async ({ page }) => {
      await page.getByLabel('Search config').waitFor();
      await noSidewaysScroll(page);
      await screenshot(page, 'run-phone');
    });
    await withPage(dash, { colorScheme: 'dark', signIn: overview }, async ({ page }) => {
      await page.getByLabel('Search config').waitFor();
      await screenshot(page, 'run-overview-dark');
    });
  });
});
