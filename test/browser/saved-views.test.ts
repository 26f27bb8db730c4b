/**
 * Saved views of the project workspace (issue 27) in Chromium against a spawned server: a
 * view saved with a filter, a hidden run, a sort and a chart's own setting comes back on a
 * reload of the bare project URL once it is the default; applying another view switches the
 * state; views are renamed, overwritten and deleted; a taken name shows the API's sentence;
 * a view a script saved through the API is listed and applies.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot, useDashboard } from '../helpers/browser.js';
import { PHONE, withPage } from '../helpers/with-page.js';
import {
  createRunHttp,
  drawn,
  ingestMetricsHttp,
  noSidewaysScroll,
  type SeededRun,
  orgOf,
} from '../helpers/browser-seed.js';
import { http } from '../helpers/http-client.js';
import { metricLine } from '../helpers/ingest-api.js';

const PROJECT = 'views-demo';
const NAMES = ['lr0.1-a', 'lr0.1-b', 'lr0.01-a', 'lr0.01-b'];
const DESKTOP = { width: 1440, height: 900 } as const;

const param = (page: Page, name: string) => new URL(page.url()).searchParams.get(name);
const viewsPanel = (page: Page) => page.getByRole('dialog', { name: 'Saved views' });
const viewItem = (page: Page, name: string) => viewsPanel(page).getByRole('listitem', { name, exact: true });
const eyeOf = (page: Page, name: string) => page.getByRole('button', { name: `Show ${name} in charts`, exact: true });

async function openViews(page: Page) {
  if ((await viewsPanel(page).count()) === 0) await page.getByRole('button', { name: 'Views', exact: true }).click();
  await viewsPanel(page).waitFor();
}

async function saveView(page: Page, name: string) {
  const form = page.getByRole('dialog', { name: 'Save view' });
  // The form may still be open (after a refusal): the button would toggle it shut.
  if ((await form.count()) === 0) await page.getByRole('button', { name: 'Save view', exact: true }).click();
  await form.getByLabel('View name').fill(name);
  await form.getByRole('button', { name: 'Save', exact: true }).click();
}

/** Whether the train/loss chart's own settings say log scale (the dialog is closed again). */
async function lossLogScale(page: Page): Promise<boolean> {
  await page
    .getByRole('figure', { name: 'train/loss', exact: true })
    .getByRole('button', { name: 'Chart settings' })
    .click();
  const dialog = page.getByRole('dialog', { name: /^Chart settings/ });
  const value = await dialog.getByLabel('Log scale').inputValue();
  await dialog.getByRole('button', { name: 'Done' }).click();
  return value === 'on';
}

describe('saved views', () => {
  const dash = useDashboard();
  const runs: SeededRun[] = [];
  let projectPath: string;

  beforeAll(async () => {
    for (const [i, runName] of NAMES.entries()) {
      const run = await createRunHttp(dash.base, dash.key, { runName, projectName: PROJECT });
      runs.push(run);
      const lines = Array.from({ length: 30 }, (_, step) =>
        metricLine(step, { 'train/loss': (1 + i) / (step + 1), 'val/acc': 1 - 1 / (step + 2 + i) }),
      );
      await ingestMetricsHttp(dash.base, dash.key, run.runId, PROJECT, lines);
    }
    projectPath = `/o/${orgOf(runs[0]!)}/projects/${PROJECT}`;
  });

  it('saves the workspace and restores it from a reload of the bare URL once it is the default', async () => {
    await withPage(dash, { ...DESKTOP, signIn: projectPath }, async ({ page }) => {
      await page.getByText(`${NAMES.length} runs`, { exact: true }).waitFor();
      await openViews(page);
      await viewsPanel(page).getByText('No saved views yet').waitFor();
      await page.keyboard.press('Escape');

      // A filter, a sort, a hidden run and a chart's own setting.
      await page.getByRole('searchbox').first().fill('lr0.1-');
      await page.getByText('2 runs match').waitFor();
      await page.getByRole('columnheader', { name: /Name/ }).getByRole('button', { name: 'Name', exact: true }).click();
      await expect.poll(() => param(page, 'sort')).toBe('name');
      await eyeOf(page, 'lr0.1-b').click();
      await expect.poll(() => param(page, 'hide')).toBe(String(runs[1]!.runId));
      await drawn(page, 'train/loss');
      await page
        .getByRole('figure', { name: 'train/loss', exact: true })
        .getByRole('button', { name: 'Chart settings' })
        .click();
      const dialog = page.getByRole('dialog', { name: /^Chart settings/ });
      await dialog.getByLabel('Log scale').selectOption('on');
      await dialog.getByRole('button', { name: 'Done' }).click();

      await saveView(page, 'lr 0.1');
      await page.getByText('View: lr 0.1').waitFor();
      expect(await page.getByText('modified', { exact: true }).count()).toBe(0);
      await screenshot(page, 'saved-views-saved');

      // Not the default yet: the bare URL opens unfiltered.
      await page.evaluate(() => localStorage.clear());
      await page.goto(`${dash.base}${projectPath}`);
      await page.getByText(`${NAMES.length} runs`, { exact: true }).waitFor();
      expect(await page.getByText('View: lr 0.1').count()).toBe(0);
      await openViews(page);
      await viewItem(page, 'lr 0.1').getByRole('button', { name: 'Set as default' }).click();
      await viewItem(page, 'lr 0.1').getByText('default', { exact: true }).waitFor();

      // The default: a reload of the bare URL (local storage cleared) brings back all of it.
      await page.evaluate(() => localStorage.clear());
      await page.goto(`${dash.base}${projectPath}`);
      await page.getByText('2 runs match').waitFor();
      await page.getByText('View: lr 0.1').waitFor();
      expect(param(page, 'q')).toBe('lr0.1-');
      expect(param(page, 'sort')).toBe('name');
      expect(param(page, 'hide')).toBe(String(runs[1]!.runId));
      expect(await eyeOf(page, 'lr0.1-b').getAttribute('aria-pressed')).toBe('false');
      await drawn(page, 'train/loss');
      expect(await lossLogScale(page)).toBe(true);
      expect(await page.getByText('modified', { exact: true }).count()).toBe(0);

      // Moving away from it says so.
      await page.getByRole('searchbox').first().fill('lr0.1-a');
      await page.getByText('1 run matches').waitFor();
      await page.getByText('modified', { exact: true }).waitFor();

      // A URL with parameters wins over the default (a shared link).
      await page.goto(`${dash.base}${projectPath}?q=lr0.01`);
      await page.getByText('2 runs match').waitFor();
      expect(param(page, 'sort')).toBeNull();
    });
  });

  it('applies a view a script saved through the API, switches views, overwrites, renames and deletes them', async () => {
    const state = {
      version: 1,
      params: { q: 'lr0.01', sort: '-name', hide: String(runs[2]!.runId) },
      layouts: { metrics: { version: 1, panels: [], removed: ['metric:val/acc'], order: [], collapsed: [] } },
    };
    const res = await http(dash.base, 'POST', '/api/views', {
      key: dash.key,
      json: { projectName: PROJECT, name: 'from a script', state },
    });
    expect(res.status).toBe(200);

    await withPage(dash, { ...DESKTOP, signIn: `${projectPath}?q=lr` }, async ({ page }) => {
      await page.getByText(`${NAMES.length} runs match`).waitFor();
      await openViews(page);
      // Default first, then by name.
      expect(
        await viewsPanel(page)
          .getByRole('listitem')
          .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label'))),
      ).toEqual(['lr 0.1', 'from a script']);
      await viewItem(page, 'from a script').getByRole('button', { name: 'from a script', exact: true }).click();
      await page.getByText('View: from a script').waitFor();
      await expect.poll(() => param(page, 'q')).toBe('lr0.01');
      expect(param(page, 'sort')).toBe('-name');
      expect(param(page, 'hide')).toBe(String(runs[2]!.runId));
      await page.getByText('2 runs match').waitFor();
      await drawn(page, 'train/loss');
      // Its layout removed the val/acc chart.
      await expect.poll(() => page.getByRole('figure', { name: 'val/acc', exact: true }).count()).toBe(0);

      // Another view switches the whole state.
      await openViews(page);
      await viewItem(page, 'lr 0.1').getByRole('button', { name: 'lr 0.1', exact: true }).click();
      await page.getByText('View: lr 0.1').waitFor();
      await expect.poll(() => param(page, 'q')).toBe('lr0.1-');
      expect(param(page, 'sort')).toBe('name');
      await drawn(page, 'val/acc');

      // Overwrite the script's view with a state of this page.
      await openViews(page);
      await viewItem(page, 'from a script').getByRole('button', { name: 'from a script', exact: true }).click();
      await page.getByText('View: from a script').waitFor();
      await page.getByRole('searchbox').first().fill('lr0.01-b');
      await page.getByText('modified', { exact: true }).waitFor();
      await openViews(page);
      await viewItem(page, 'from a script').getByRole('button', { name: 'Update with current state' }).click();
      await expect.poll(() => page.getByText('modified', { exact: true }).count()).toBe(0);
      const saved = await http(dash.base, 'GET', `/api/views?projectName=${PROJECT}`, { key: dash.key });
      const id = (saved.body as unknown as { views: { id: number; name: string }[] }).views.find(
        (v) => v.name === 'from a script',
      )!.id;
      const one = await http(dash.base, 'GET', `/api/views/${id}`, { key: dash.key });
      expect((one.body as unknown as { state: { params: Record<string, string> } }).state.params.q).toBe('lr0.01-b');

      // Rename, then delete after a confirmation.
      await viewItem(page, 'from a script').getByRole('button', { name: 'Rename' }).click();
      await viewsPanel(page).getByLabel('New name').fill('lr 0.01 b');
      await viewsPanel(page).getByRole('button', { name: 'Save name' }).click();
      await viewItem(page, 'lr 0.01 b').waitFor();
      await page.getByText('View: lr 0.01 b').waitFor();
      await viewItem(page, 'lr 0.01 b').getByRole('button', { name: 'Delete', exact: true }).click();
      await viewItem(page, 'lr 0.01 b').getByRole('button', { name: 'Delete view' }).click();
      await expect.poll(() => viewItem(page, 'lr 0.01 b').count()).toBe(0);
      expect(await page.getByText('View: lr 0.01 b').count()).toBe(0);
      await screenshot(page, 'saved-views-list');
    });
  });

  it('shows the API’s sentence when a name is taken', async () => {
    await withPage(dash, { ...DESKTOP, signIn: `${projectPath}?q=lr`, expectedStatuses: [409] }, async ({ page }) => {
      await page.getByText(`${NAMES.length} runs match`).waitFor();
      await saveView(page, 'lr 0.1');
      const taken = 'a saved view named "lr 0.1" already exists in this project; choose another name';
      await page.getByRole('dialog', { name: 'Save view' }).getByRole('alert').filter({ hasText: taken }).waitFor();
      expect(await page.getByText(/^View:/).count()).toBe(0);
      await page.keyboard.press('Escape');

      // Renaming another view to it says the same.
      await saveView(page, 'all lr');
      await page.getByText('View: all lr').waitFor();
      await openViews(page);
      await viewItem(page, 'all lr').getByRole('button', { name: 'Rename' }).click();
      await viewsPanel(page).getByLabel('New name').fill('lr 0.1');
      await viewsPanel(page).getByRole('button', { name: 'Save name' }).click();
      await viewsPanel(page).getByRole('alert').filter({ hasText: taken }).waitFor();
      expect(await viewItem(page, 'all lr').count()).toBe(1);
    });
  });

  it('fits the views control on a phone', async () => {
    await withPage(dash, { ...PHONE, signIn: `${projectPath}?q=lr` }, async ({ page }) => {
      await page.getByText(`${NAMES.length} runs match`).waitFor();
      await openViews(page);
      await viewItem(page, 'lr 0.1').waitFor();
      await noSidewaysScroll(page);
      const box = (await viewsPanel(page).boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
      await screenshot(page, 'saved-views-phone');
    });
  });
});
