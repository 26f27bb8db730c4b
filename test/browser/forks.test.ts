/**
 * The "Forks" line of a run's header in Chromium against a spawned server: a parent lists
 * its direct forks (name link, display id, fork step) and not its grandchildren, a fork's
 * link opens the fork (which names its parent), a run without forks shows no line; phone
 * width in the dark theme without sideways scroll.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot, useDashboard } from '../helpers/browser.js';
import { PHONE, withPage } from '../helpers/with-page.js';
import { createRunHttp, ingestMetricsHttp, noSidewaysScroll, pathOf, type SeededRun } from '../helpers/browser-seed.js';
import { metricLine } from '../helpers/ingest-api.js';

const PROJECT = 'fork-demo';

type Created = SeededRun;

const createRun = (base: string, key: string, body: Record<string, unknown>): Promise<Created> =>
  createRunHttp(base, key, { projectName: PROJECT, ...body });

describe('the forks of a run', () => {
  const dash = useDashboard();
  let parent: Created;
  let early: Created;
  let late: Created;

  beforeAll(async () => {
    parent = await createRun(dash.base, dash.key, { runName: 'base-run' });
    const lines = Array.from({ length: 10 }, (_, s) => metricLine(s, { loss: 1 / (s + 1) }));
    await ingestMetricsHttp(dash.base, dash.key, parent.runId, PROJECT, lines);
    early = await createRun(dash.base, dash.key, { runName: 'fork-early', forkRunId: parent.runId, forkStep: 2 });
    late = await createRun(dash.base, dash.key, { runName: 'fork-late', forkRunId: parent.runId, forkStep: 7 });
    await createRun(dash.base, dash.key, { runName: 'grandchild', forkRunId: late.runId, forkStep: 7 });
  });

  it('lists each fork with its display id and step, and a fork link opens the fork', async () => {
    await withPage(dash, { signIn: pathOf(parent.url) }, async ({ page }) => {
      await page.getByRole('heading', { level: 1, name: 'base-run' }).waitFor();
      const list = page.getByRole('list', { name: 'Forks of this run' });
      await list.waitFor();
      const items = await list.getByRole('listitem').allTextContents();
      expect(items.map((t) => t.replace(/\s+/g, ' ').trim())).toEqual([
        `fork-early ${early.displayId} at step 2`,
        `fork-late ${late.displayId} at step 7`,
      ]);
      expect(await list.getByRole('link', { name: 'grandchild' }).count()).toBe(0);
      await screenshot(page, 'run-forks');
      await list.getByRole('link', { name: 'fork-late' }).click();
      await page.getByRole('heading', { level: 1, name: 'fork-late' }).waitFor();
      expect(new URL(page.url()).pathname).toBe(pathOf(late.url));
      // The fork names its parent, and lists its own fork.
      await page.getByRole('link', { name: 'base-run' }).waitFor();
      await page.getByRole('list', { name: 'Forks of this run' }).getByRole('link', { name: 'grandchild' }).waitFor();
    });
  });

  it('shows no Forks line for a run without forks', async () => {
    await withPage(dash, { signIn: pathOf(early.url) }, async ({ page }) => {
      await page.getByRole('heading', { level: 1, name: 'fork-early' }).waitFor();
      await page.getByRole('link', { name: 'base-run' }).waitFor();
      // The forks answer has arrived once the network is quiet.
      await page.waitForLoadState('networkidle');
      expect(await page.getByRole('list', { name: 'Forks of this run' }).count()).toBe(0);
    });
  });

  it('fits a phone in the dark theme', async () => {
    await withPage(dash, { ...PHONE, colorScheme: 'dark', signIn: pathOf(parent.url) }, async ({ page }) => {
      await page.getByRole('list', { name: 'Forks of this run' }).waitFor();
      await noSidewaysScroll(page);
      await screenshot(page, 'run-forks-phone-dark');
    });
  });
});
