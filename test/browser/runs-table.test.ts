/**
 * The projects list and a project's runs table in Chromium against a spawned server with
 * seeded runs: counts, display ids and statuses, sorting by a metric column, a filter kept in
 * the URL across a reload, Compare with two selected runs, the leaderboard, paging on scroll,
 * and the pluto snippet of an empty project.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot, useDashboard } from '../helpers/browser.js';
import { withPage } from '../helpers/with-page.js';
import { createRunHttp, ingestMetricsHttp } from '../helpers/browser-seed.js';
import { http } from '../helpers/http-client.js';
import { metricLine } from '../helpers/ingest-api.js';

const PROJECT = 'vision';
/** Seeded runs, oldest first: each one's final train/loss, learning rate, tags and status. */
const RUNS = [
  { name: 'resnet-a', loss: 0.9, lr: 0.1, tags: ['baseline'], status: 'COMPLETED' },
  { name: 'resnet-b', loss: 0.3, lr: 0.01, tags: ['sweep'], status: 'COMPLETED' },
  { name: 'resnet-c', loss: 0.5, lr: 0.003, tags: ['sweep'], status: 'FAILED' },
  { name: 'resnet-d', loss: 0.1, lr: 0.001, tags: ['sweep', 'best'], status: 'COMPLETED' },
  { name: 'resnet-e', loss: 0.7, lr: 0.0003, tags: [], status: 'RUNNING' },
] as const;
const MANY = 450;

interface Seeded {
  runId: number;
  displayId: string;
}

async function createRun(
  base: string,
  key: string,
  project: string,
  runName: string,
  extra: Record<string, unknown> = {},
): Promise<Seeded> {
  const run = await createRunHttp(base, key, { runName, projectName: project, ...extra });
  return { runId: run.runId, displayId: run.displayId };
}

/** The run names of the table's rows, top to bottom. */
async function rowNames(page: Page): Promise<string[]> {
  const table = page.getByRole('region', { name: 'Runs table' });
  return table.locator('tbody tr:not(.spacer) td:nth-child(2) a').allTextContents();
}

describe('projects and runs pages', () => {
  const dash = useDashboard();
  let org: string;
  const seeded = new Map<string, Seeded>();

  beforeAll(async () => {
    const key = dash.key;
    const t0 = Date.now() - 2 * 3600_000;
    for (const [i, run] of RUNS.entries()) {
      const s = await createRun(dash.base, key, PROJECT, run.name, {
        tags: [...run.tags],
        config: JSON.stringify({ lr: run.lr, model: { depth: 50 + i } }),
        createdAt: t0 + i * 60_000,
      });
      seeded.set(run.name, s);
      const lines = [
        metricLine(0, { 'train/loss': 2 }),
        metricLine(1, { 'train/loss': run.loss, 'val/acc': 1 - run.loss }),
      ];
      await ingestMetricsHttp(dash.base, key, s.runId, PROJECT, lines);
      if (run.status !== 'RUNNING') {
        const res = await http(dash.base, 'POST', '/api/runs/status/update', {
          key,
          json: { runId: s.runId, status: run.status },
        });
        expect(res.status).toBe(200);
      }
    }
    for (let i = 0; i < MANY; i++) {
      await createRun(dash.base, key, 'many-runs', `many-${String(i).padStart(4, '0')}`, { createdAt: t0 + i * 1000 });
    }
    const validate = await http(dash.base, 'GET', '/api/runs/auth/validate', { key });
    org = (validate.body.organization as { slug: string }).slug;
  }, 120_000);

  it('lists the projects with their run counts and filters them', async () => {
    await withPage(dash, { signIn: `/o/${org}/projects` }, async ({ page }) => {
      const row = page.getByRole('row', { name: new RegExp(`^${PROJECT}\\b`) });
      await row.waitFor();
      expect(await row.getByRole('cell').nth(1).textContent()).toBe(String(RUNS.length));
      await expect.poll(() => page.getByRole('row', { name: /many-runs/ }).textContent()).toContain('450');
      await screenshot(page, 'projects');

      await page.getByLabel('Filter projects').fill('vis');
      await expect.poll(() => page.getByRole('row', { name: /many-runs/ }).count()).toBe(0);
      await row.getByRole('link', { name: PROJECT }).click();
      await page.waitForURL((url) => url.pathname === `/o/${org}/projects/${PROJECT}`);
      await page.getByRole('heading', { name: PROJECT }).waitFor();
    });
  });

  it('shows the runs with display ids and statuses, and sorts by a metric column', async () => {
    await withPage(dash, { signIn: `/o/${org}/projects/${PROJECT}` }, async ({ page }) => {
      await page.getByText(`${RUNS.length} runs`).waitFor();
      // Newest first by default.
      expect(await rowNames(page)).toEqual(RUNS.map((r) => r.name).reverse());
      for (const run of RUNS) {
        const row = page.getByRole('row', { name: new RegExp(`Select run ${run.name}\\b`) });
        await expect.poll(() => row.textContent()).toContain(seeded.get(run.name)!.displayId);
        expect(await row.locator('.status').textContent()).toBe(run.status);
      }

      // Add the metric column through the Columns control, then sort by it.
      await page.getByText('Columns', { exact: true }).click();
      await page.getByRole('checkbox', { name: 'train/loss last' }).check();
      await page.keyboard.press('Escape');
      const header = page.getByRole('columnheader', { name: /train\/loss \(last\)/ });
      await header.waitFor();
      expect(new URL(page.url()).searchParams.getAll('col')).toEqual(['metric:last:train/loss']);
      await header.getByRole('button', { name: 'train/loss (last)', exact: true }).click();
      const ascending = [...RUNS].sort((a, b) => a.loss - b.loss).map((r) => r.name);
      await expect.poll(() => rowNames(page)).toEqual(ascending);
      expect(await header.getAttribute('aria-sort')).toBe('ascending');
      await header.getByRole('button', { name: 'train/loss (last)', exact: true }).click();
      await expect.poll(() => rowNames(page)).toEqual([...ascending].reverse());
      expect(await header.getAttribute('aria-sort')).toBe('descending');
      expect(new URL(page.url()).searchParams.get('sort')).toBe('-summary_metrics.train/loss');
      const lossCell = page
        .getByRole('row', { name: /Select run resnet-d\b/ })
        .getByRole('cell')
        .last();
      expect(await lossCell.textContent()).toBe('0.1');
      await screenshot(page, 'runs');
    });
  });

  it('keeps a metric filter and a search in the URL across a reload', async () => {
    await withPage(dash, { signIn: `/o/${org}/projects/${PROJECT}` }, async ({ page }) => {
      await page.getByText(`${RUNS.length} runs`).waitFor();

      await page.getByText('Add filter', { exact: true }).click();
      await page.getByLabel('Metric', { exact: true }).fill('train/loss');
      await page.getByLabel('Operator').selectOption('$lt');
      await page.getByLabel('Value').fill('0.6');
      await page.getByRole('button', { name: 'Apply filter' }).click();
      await page.getByText('3 runs match').waitFor();
      expect(JSON.parse(new URL(page.url()).searchParams.get('filter')!)).toEqual({
        'summary_metrics.train/loss': { $lt: 0.6 },
      });
      await page.getByLabel('Search runs').fill('resnet-');
      await page.getByRole('checkbox', { name: 'Select run resnet-b' }).waitFor();
      await page.waitForURL((url) => url.searchParams.get('q') === 'resnet-');

      await page.reload();
      await page.getByText('3 runs match').waitFor();
      expect(await page.getByLabel('Search runs').inputValue()).toBe('resnet-');
      await page.getByRole('button', { name: 'Remove filter: metric train/loss last < 0.6' }).waitFor();
      expect((await rowNames(page)).sort()).toEqual(['resnet-b', 'resnet-c', 'resnet-d']);

      // Removing the chip brings every run back.
      await page.getByRole('button', { name: 'Remove filter: metric train/loss last < 0.6' }).click();
      await page.getByText(`${RUNS.length} runs match`).waitFor();
    });
  });

  it('compares two selected runs', async () => {
    await withPage(dash, { signIn: `/o/${org}/projects/${PROJECT}` }, async ({ page }) => {
      const compare = page.getByRole('button', { name: /^Compare/ });
      await compare.waitFor();
      expect(await compare.isDisabled()).toBe(true);
      await page.getByRole('checkbox', { name: 'Select run resnet-b' }).check();
      expect(await compare.isDisabled()).toBe(true);
      await page.getByRole('checkbox', { name: 'Select run resnet-d' }).check();
      expect(await compare.isDisabled()).toBe(false);
      await compare.click();
      await page.waitForURL((url) => url.pathname.endsWith('/compare'));
      const url = new URL(page.url());
      expect(url.pathname).toBe(`/o/${org}/projects/${PROJECT}/compare`);
      expect(url.searchParams.get('runs')).toBe(`${seeded.get('resnet-b')!.runId},${seeded.get('resnet-d')!.runId}`);
    });
  });

  it('ranks runs on the leaderboard', async () => {
    await withPage(dash, { signIn: `/o/${org}/projects/${PROJECT}` }, async ({ page }) => {
      await page.getByRole('button', { name: 'Leaderboard' }).click();
      await page.getByLabel('Metric').selectOption('val/acc');
      await page.getByLabel('Direction').selectOption('DESC');
      const board = page.getByRole('region', { name: 'Leaderboard' });
      const byAcc = [...RUNS].sort((a, b) => b.loss - a.loss).reverse();
      await expect
        .poll(() => board.locator('tbody tr td:nth-child(3)').allTextContents())
        .toEqual(byAcc.map((r) => r.name));
      expect(await board.locator('tbody tr').first().locator('td').first().textContent()).toBe('1');
      const url = new URL(page.url());
      expect([url.searchParams.get('view'), url.searchParams.get('metric'), url.searchParams.get('dir')]).toEqual([
        'leaderboard',
        'val/acc',
        'DESC',
      ]);
      await screenshot(page, 'leaderboard');
    });
  });

  it('fetches further pages of a large project as the table scrolls', async () => {
    await withPage(dash, { signIn: `/o/${org}/projects/many-runs` }, async ({ page }) => {
      await page.getByText(`${MANY} runs`).waitFor();
      const rendered = await page.locator('.runs-table tbody tr:not(.spacer)').count();
      expect(rendered).toBeLessThan(100);
      const lists: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/api/runs/list')) lists.push(new URL(r.url()).searchParams.get('offset') ?? '');
      });
      await page.getByRole('region', { name: 'Runs table' }).evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await page.getByRole('link', { name: 'many-0000', exact: true }).waitFor();
      expect(lists).toContain('400');
    });
  });

  it('shows how to log to an empty project with the pluto client', async () => {
    await withPage(dash, { signIn: `/o/${org}/projects/fresh-project` }, async ({ page }) => {
      await page
        .getByRole('heading', { name: /fresh-project/ })
        .nth(1)
        .waitFor();
      const code = await page.locator('pre').allTextContents();
      const text = code.join('\n');
      for (const name of ['PLUTO_URL_APP', 'PLUTO_URL_API', 'PLUTO_URL_INGEST']) {
        expect(text).toContain(`${name}=${dash.base}`);
      }
      expect(text).toContain('pluto.init(project="fresh-project"');
      await page.getByRole('button', { name: /^Copy environment/ }).waitFor();
      await screenshot(page, 'empty-project');
    });
  });

  it('explains another organization and an unknown page', async () => {
    await withPage(dash, { signIn: '/o/someone-else/projects' }, async ({ page }) => {
      await page.getByRole('heading', { name: 'Not your organization' }).waitFor();
      await page.getByRole('link', { name: `Go to the projects of ${org}` }).click();
      await page.waitForURL((url) => url.pathname === `/o/${org}/projects`);
      await page.goto(`${dash.base}/no/such/page`);
      await page.getByRole('heading', { name: 'Page not found' }).waitFor();
      await page.getByRole('link', { name: 'Your projects' }).waitFor();
      await screenshot(page, 'not-found');
    });
  });
});
