/**
 * The runs table of a 12-run sweep as a new user meets it (issue 27, bugs 3, 5 and 6): the
 * Name and selection columns stay pinned while many columns scroll sideways, select-all and
 * shift-click ranges, the Add-filter popover closing on Apply, the empty and invalid-filter
 * states, "1 run matches", and the leaderboard and compare statistics defaulting to a
 * training metric and following the table's filters.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot, useDashboard } from '../helpers/browser.js';
import { createRunHttp, ingestMetricsHttp } from '../helpers/browser-seed.js';
import { http } from '../helpers/http-client.js';
import { metricLine } from '../helpers/ingest-api.js';
import { withPage } from '../helpers/with-page.js';

const PROJECT = 'sweep';
/** sweep-01 … sweep-12; every fourth run failed. */
const RUNS = Array.from({ length: 12 }, (_, i) => ({
  name: `sweep-${String(i + 1).padStart(2, '0')}`,
  loss: 0.1 + i * 0.05,
  failed: i % 4 === 3,
}));
const FAILED = RUNS.filter((r) => r.failed).map((r) => r.name);
/** Seven extra columns, as the URL keeps them. */
const SEVEN = [
  'config:lr',
  'config:optimizer',
  'config:seed',
  'config:batch_size',
  'metric:last:train/loss',
  'metric:min:train/loss',
  'metric:last:val/acc',
];

/** The number of ticked row checkboxes. */
const selectedCount = (page: Page): Promise<number> =>
  page
    .getByRole('checkbox', { name: /^Select run / })
    .evaluateAll((els) => els.filter((e) => (e as HTMLInputElement).checked).length);

describe('the runs table of a sweep', () => {
  const dash = useDashboard();
  let org: string;
  const path = () => `/o/${org}/projects/${PROJECT}`;

  beforeAll(async () => {
    const t0 = Date.now() - 3600_000;
    for (const [i, run] of RUNS.entries()) {
      const created = await createRunHttp(dash.base, dash.key, {
        runName: run.name,
        projectName: PROJECT,
        createdAt: t0 + i * 1000,
        config: JSON.stringify({
          lr: 10 ** -(1 + (i % 3)),
          optimizer: i % 2 ? 'adamw' : 'sgd',
          seed: i,
          batch_size: 64,
        }),
      });
      await ingestMetricsHttp(dash.base, dash.key, created.runId, PROJECT, [
        metricLine(0, { 'sys/cpu.pct': 50 + i, 'sys/mem.pct': 20, 'train/loss': 2 }),
        metricLine(1, { 'train/loss': run.loss, 'val/acc': 1 - run.loss }),
      ]);
      const res = await http(dash.base, 'POST', '/api/runs/status/update', {
        key: dash.key,
        json: { runId: created.runId, status: run.failed ? 'FAILED' : 'COMPLETED' },
      });
      expect(res.status).toBe(200);
    }
    const validate = await http(dash.base, 'GET', '/api/runs/auth/validate', { key: dash.key });
    org = (validate.body.organization as { slug: string }).slug;
  }, 60_000);

  it('keeps the names and checkboxes pinned while seven extra columns scroll sideways', async () => {
    const cols = SEVEN.map((c) => `col=${encodeURIComponent(c)}`).join('&');
    const target = `${path()}?${cols}&sort=${encodeURIComponent('-summary_metrics.val/acc')}`;
    await withPage(dash, { width: 1440, height: 900, signIn: target }, async ({ page }) => {
      await page.getByText(`${RUNS.length} runs`).waitFor();
      const region = page.getByRole('region', { name: 'Runs table' });
      const box = (await region.boundingBox())!;
      // The last column can be reached by scrolling the table, not cut off by the page.
      const last = page.getByRole('columnheader', { name: /val\/acc \(last\)/ });
      await region.evaluate((el) => el.scrollTo(el.scrollWidth, 0));
      const lastBox = (await last.boundingBox())!;
      expect(lastBox.x + lastBox.width).toBeLessThanOrEqual(box.x + box.width + 1);
      expect(lastBox.x).toBeGreaterThanOrEqual(box.x);
      // Scrolled to the far right, the first row's name and checkbox are still there to see and click.
      const top = RUNS[0]!.name; // lowest loss, so highest val/acc
      const link = page.getByRole('link', { name: top, exact: true });
      const checkbox = page.getByRole('checkbox', { name: `Select run ${top}` });
      for (const target of [link, checkbox]) {
        const b = (await target.boundingBox())!;
        expect(b.x).toBeGreaterThanOrEqual(box.x);
        const hit = await page.evaluate(
          ([x, y]) => document.elementFromPoint(x!, y!)?.closest('a, input')?.outerHTML ?? '',
          [b.x + Math.min(b.width / 2, 20), b.y + b.height / 2],
        );
        expect(hit).toContain(top);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
        1,
      );
      await screenshot(page, 'runs-pinned-columns');
    });
  });

  it('selects every visible row from the header box, and a shift-click range', async () => {
    await withPage(dash, { signIn: `${path()}?sort=name` }, async ({ page }) => {
      await page.getByText(`${RUNS.length} runs`).waitFor();
      const all = page.getByRole('checkbox', { name: 'Select all runs' });
      await page.getByRole('checkbox', { name: 'Select run sweep-02' }).check();
      expect(await all.evaluate((e) => (e as HTMLInputElement).indeterminate)).toBe(true);
      expect(await all.isChecked()).toBe(false);
      await all.click();
      await expect.poll(() => selectedCount(page)).toBe(RUNS.length);
      expect(await all.isChecked()).toBe(true);
      await page.getByText(`${RUNS.length} selected`).waitFor();
      await all.click();
      await expect.poll(() => selectedCount(page)).toBe(0);

      // Click sweep-02, then shift-click sweep-11: the ten runs between them are selected.
      await page.getByRole('checkbox', { name: 'Select run sweep-02' }).click();
      await page.getByRole('checkbox', { name: 'Select run sweep-11' }).click({ modifiers: ['Shift'] });
      await expect.poll(() => selectedCount(page)).toBe(10);
      await page.getByText('10 selected').waitFor();
      expect(await page.getByRole('checkbox', { name: 'Select run sweep-01' }).isChecked()).toBe(false);
      expect(await page.getByRole('checkbox', { name: 'Select run sweep-12' }).isChecked()).toBe(false);
      expect(await all.evaluate((e) => (e as HTMLInputElement).indeterminate)).toBe(true);
    });
  });

  it('closes Add filter on Apply, shows an empty state and counts one run in the singular', async () => {
    await withPage(dash, { signIn: path() }, async ({ page }) => {
      await page.getByText(`${RUNS.length} runs`).waitFor();
      await page.getByText('Add filter', { exact: true }).click();
      await page.getByLabel('Metric', { exact: true }).fill('train/loss');
      await page.getByLabel('Operator').selectOption('$lt');
      await page.getByLabel('Value').fill('-5');
      await page.getByRole('button', { name: 'Apply filter' }).click();
      await page.getByRole('button', { name: 'Remove filter: metric train/loss last < -5' }).waitFor();
      await page.getByRole('button', { name: 'Apply filter' }).waitFor({ state: 'hidden' });

      await page.getByText('No runs match these filters').waitFor();
      await page.getByText('0 runs match').waitFor();
      await screenshot(page, 'runs-no-match');
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await page.getByText(`${RUNS.length} runs`, { exact: true }).waitFor();

      await page.getByLabel('Search runs').fill('sweep-07');
      await page.getByText('1 run matches', { exact: true }).waitFor();
      await page.getByLabel('Search runs').fill('sweep-1');
      await page.getByText('3 runs match', { exact: true }).waitFor();
    });
  });

  it('shows the API’s message for an invalid filter and offers to edit or clear it', async () => {
    const bad = JSON.stringify({ 'summary_metrics.train/loss': { $near: 1 } });
    await withPage(
      dash,
      { signIn: `${path()}?filter=${encodeURIComponent(bad)}`, expectedStatuses: [400] },
      async ({ page }) => {
        const alert = page.getByRole('alert').filter({ hasText: /near/ });
        await alert.waitFor();
        expect(await page.getByText('Counting runs…').count()).toBe(0);
        expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(0);
        await screenshot(page, 'runs-invalid-filter');
        // Edit opens Filter JSON on the refused filter; the corrected one applies and the panel closes.
        await alert.getByRole('button', { name: 'Edit filter' }).click();
        const json = page.getByLabel('Filter JSON');
        expect(JSON.parse(await json.inputValue())).toEqual(JSON.parse(bad));
        await json.fill(JSON.stringify({ 'summary_metrics.train/loss': { $lt: 5 } }));
        await page.getByRole('button', { name: 'Apply JSON' }).click();
        await page.getByText(`${RUNS.length} runs match`, { exact: true }).waitFor();
        await page.getByRole('button', { name: 'Apply JSON' }).waitFor({ state: 'hidden' });

        await page.goto(`${dash.base}${path()}?filter=${encodeURIComponent(bad)}`);
        await alert.getByRole('button', { name: 'Clear filter' }).click();
        await page.getByText(`${RUNS.length} runs`, { exact: true }).waitFor();
        expect(new URL(page.url()).searchParams.get('filter')).toBeNull();
      },
    );
  });

  it('ranks the leaderboard by a training metric and only the runs the filters keep', async () => {
    await withPage(dash, { signIn: `${path()}?view=leaderboard` }, async ({ page }) => {
      const board = page.getByRole('region', { name: 'Leaderboard' });
      await board.locator('tbody tr').first().waitFor();
      expect(await page.getByLabel('Metric').inputValue()).toBe('train/loss');
      expect(await page.getByLabel('Direction').inputValue()).toBe('ASC');
      await expect.poll(() => board.locator('tbody tr td:nth-child(3)').count()).toBe(RUNS.length);

      await page.goto(`${dash.base}${path()}?view=leaderboard&status=FAILED`);
      await expect.poll(() => board.locator('tbody tr td:nth-child(3)').allTextContents()).toEqual(FAILED);
      await board.getByText(/3 matching runs ranked by last value/).waitFor();
      await board.getByRole('button', { name: 'Remove filter: status FAILED' }).waitFor();
      // Every aggregation ranks only the runs the filters keep (MAX ties at 2: by run id).
      for (const [aggregation, label] of [
        ['MIN', 'minimum'],
        ['MAX', 'maximum'],
        ['AVG', 'mean'],
      ] as const) {
        await page.getByLabel('Aggregation').selectOption(aggregation);
        await board.getByText(new RegExp(`3 matching runs ranked by ${label}`)).waitFor();
        await expect.poll(() => board.locator('tbody tr td:nth-child(3)').allTextContents()).toEqual(FAILED);
      }
      await screenshot(page, 'leaderboard-filtered');
    });
  });

  it('opens the compare statistics on a training metric, not a system one', async () => {
    await withPage(dash, { signIn: path() }, async ({ page }) => {
      await page.getByRole('checkbox', { name: 'Select run sweep-01' }).check();
      await page.getByRole('checkbox', { name: 'Select run sweep-02' }).check();
      await page.getByRole('button', { name: /^Compare/ }).click();
      await page.waitForURL((url) => url.pathname.endsWith('/compare'));
      const stats = page.getByRole('region', { name: 'Statistics' });
      await stats.getByLabel('Metric').waitFor();
      await expect.poll(() => stats.getByLabel('Metric').inputValue()).toBe('train/loss');
    });
  });
});
