/**
 * Grouped runs (issue 28): the 24-run sweep grouped by config.lr and config.optimizer shows
 * six group rows of four runs and six banded mean lines whose legend names each group and
 * its run count; the Band control widens the bands to min–max; a phone width still fits. A
 * run hidden with its eye leaves its group; metric columns keep their summary when grouped and
 * config columns show the group's shared value or how many it holds.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { downloadedBytes, screenshot, useDashboard } from '../helpers/browser.js';
import {
  createRunHttp,
  drawn,
  ingestMetricsHttp,
  noSidewaysScroll,
  type SeededRun,
  orgOf,
} from '../helpers/browser-seed.js';
import { metricLine } from '../helpers/ingest-api.js';
import { PHONE, withPage } from '../helpers/with-page.js';
import { seedSweep } from './sweep-seed.js';

const PROJECT = 'grouped-sweep';
const DESKTOP = { width: 1440, height: 1000 } as const;
/** The sweep's groups by config.lr and config.optimizer, in the API's order. */
const LR_OPTIMIZER_GROUPS = [
  'lr=0.0003, adamw',
  'lr=0.0003, sgd',
  'lr=0.001, adamw',
  'lr=0.001, sgd',
  'lr=0.003, adamw',
  'lr=0.003, sgd',
];

/** The band's width in the readout of the first group at the middle of the chart of `logName`. */
async function bandWidth(page: Page, logName: string): Promise<number> {
  const figure = page.locator(`figure[aria-label="${logName}"]`);
  const over = figure.locator('.u-over');
  const box = (await over.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const row = figure.locator('.group-tip-row').first();
  await row.waitFor();
  const text = (await row.locator('.group-tip-value').textContent())!;
  const m = /(?:±std|min–max) (-?[\d.e+-]+)–(-?[\d.e+-]+) · n (\d+)/.exec(text);
  expect(m, text).not.toBeNull();
  expect(m![3]).toBe('4');
  return Number(m![2]) - Number(m![1]);
}

/** The rows of a grouped chart's CSV for one group: [n, mean] of each bucket. */
async function groupCsv(page: Page, logName: string, group: string): Promise<[number, number][]> {
  const figure = page.getByRole('figure', { name: logName, exact: true });
  const download = page.waitForEvent('download');
  await figure.getByRole('button', { name: `Download ${logName} as CSV` }).click();
  const rows = (await downloadedBytes(await download)).toString('utf8').trim().split('\n');
  return rows
    .filter((r) => r.startsWith(`"${group}",`))
    .map((r) => {
      const cells = r.slice(group.length + 3).split(',');
      return [Number(cells[2]), Number(cells[3])];
    });
}

describe('grouped runs', () => {
  const dash = useDashboard();
  let path: string;
  let runs: SeededRun[];

  beforeAll(async () => {
    runs = await seedSweep(dash.base, dash.key, PROJECT);
    path = `/o/${orgOf(runs[0]!)}/projects/${PROJECT}`;
  });

  it('groups the sweep by lr and optimizer into 6 rows of 4 runs and 6 banded lines', async () => {
    await withPage(dash, { ...DESKTOP, signIn: path }, async ({ page }) => {
      await page.getByRole('link', { name: 'adamw-lr0.001-seed0', exact: true }).waitFor();
      await page.getByText('Group by', { exact: true }).click();
      await page.getByRole('checkbox', { name: 'lr', exact: true }).check();
      await page.getByRole('checkbox', { name: /^optimizer/ }).check();
      await page.keyboard.press('Escape');
      expect(new URL(page.url()).searchParams.get('group')).toBe('config.lr,config.optimizer');

      const table = page.getByRole('region', { name: 'Runs table' });
      const groupRows = table.locator('tr.group-row');
      await expect.poll(() => groupRows.count()).toBe(6);
      const counts = await table.locator('tr.group-row .group-count').allTextContents();
      expect(counts).toEqual(Array(6).fill('4 runs'));
      const names = await table.locator('tr.group-row button').allTextContents();
      expect(names.map((n) => n.slice(2))).toEqual(LR_OPTIMIZER_GROUPS);

      // A group opens to list its four runs.
      await table.getByRole('button', { name: /lr=0.001, sgd$/ }).click();
      await expect.poll(() => table.locator('tr.group-run a').count()).toBe(4);

      const legend = page.getByRole('list', { name: 'Groups' });
      await expect.poll(() => legend.getByRole('listitem').count()).toBe(6);
      const entries = await legend.getByRole('listitem').allTextContents();
      expect(entries[0]).toBe('lr=0.0003, adamw · 4 runs');
      expect(entries.every((e) => e.endsWith(' · 4 runs'))).toBe(true);
      await drawn(page, 'train/loss');
      await expect(page.locator('figure[aria-label="train/loss"] .chart-meta').textContent()).resolves.toContain(
        '6 groups',
      );
      await screenshot(page, 'groups-desktop');

      // Min–max spans every seed: wider than ± one standard deviation here.
      const std = await bandWidth(page, 'train/loss');
      expect(std).toBeGreaterThan(0);
      await page.getByRole('combobox', { name: 'Band' }).selectOption({ label: 'Min–max' });
      expect(new URL(page.url()).searchParams.get('band')).toBe('minmax');
      await drawn(page, 'train/loss');
      await expect
        .poll(async () => page.locator('figure[aria-label="train/loss"] .chart-meta').textContent())
        .toContain('min–max');
      const minmax = await bandWidth(page, 'train/loss');
      expect(minmax).toBeGreaterThan(std);
      await screenshot(page, 'groups-minmax');

      // A drag zooms every grouped chart to a step window (asked again); a double-click zooms out.
      const over = page.locator('figure[aria-label="train/loss"] .u-over');
      const box = (await over.boundingBox())!;
      await page.mouse.move(box.x + box.width * 0.25, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 5 });
      await page.mouse.up();
      await expect.poll(() => new URL(page.url()).searchParams.get('zoom')).toMatch(/^\d+-\d+$/);
      await drawn(page, 'val/acc');
      await expect
        .poll(() => page.locator('figure[aria-label="val/acc"] .chart-meta').textContent())
        .toMatch(/steps \d+–\d+/);
      await over.dblclick();
      await expect.poll(() => new URL(page.url()).searchParams.get('zoom')).toBeNull();
    });
  });

  it('saves a grouped chart as PNG and its buckets as CSV', async () => {
    await withPage(dash, { ...DESKTOP, signIn: `${path}?group=config.lr,config.optimizer` }, async ({ page }) => {
      await drawn(page, 'train/loss');
      const figure = page.getByRole('figure', { name: 'train/loss', exact: true });

      const csvDownload = page.waitForEvent('download');
      await figure.getByRole('button', { name: 'Download train/loss as CSV' }).click();
      const csv = await csvDownload;
      expect(csv.suggestedFilename()).toBe('train_loss.csv');
      const rows = (await downloadedBytes(csv)).toString('utf8').trim().split('\n');
      expect(rows[0]).toBe('group,step,stepEnd,n,mean,std,stderr,min,max');
      const groups = new Set(rows.slice(1).map((r) => /^"([^"]+)"/.exec(r)?.[1]));
      expect([...groups].sort()).toEqual(LR_OPTIMIZER_GROUPS);
      expect(rows[1]).toMatch(/^"lr=0.0003, adamw",\d+,\d+,4,[-\d.e]+,[\d.e-]+,[\d.e-]+,[-\d.e]+,[-\d.e]+$/);

      const pngDownload = page.waitForEvent('download');
      await figure.getByRole('button', { name: 'Download train/loss as PNG' }).click();
      const png = await pngDownload;
      expect(png.suggestedFilename()).toBe('train_loss.png');
      const bytes = await downloadedBytes(png);
      expect(bytes.subarray(1, 4).toString()).toBe('PNG');
      expect(bytes.length).toBeGreaterThan(2000);
    });
  });

  it('keeps the readout compact on a phone: the nearest groups on a line each, then "+N more"', async () => {
    const url = `${path}?group=config.lr,config.optimizer`;
    for (const size of [PHONE, DESKTOP])
      await withPage(dash, { ...size, signIn: url }, async ({ page }) => {
        if (size === PHONE)
          await page.getByRole('group', { name: 'Show' }).getByRole('button', { name: 'Charts' }).click();
        await drawn(page, 'train/loss');
        const figure = page.getByRole('figure', { name: 'train/loss', exact: true });
        const plot = (await figure.locator('.u-over').boundingBox())!;
        await page.mouse.move(plot.x + plot.width / 2, plot.y + plot.height / 2);
        const tip = figure.locator('.chart-tip');
        await tip.locator('.group-tip-row').first().waitFor();
        const rows = tip.locator('.group-tip-row');
        if (size === DESKTOP) {
          // The desktop readout is as before: every group, its numbers on a line of their own.
          expect(await rows.count()).toBe(6);
          expect(await tip.getByText(/more$/).count()).toBe(0);
          return;
        }
        expect(await rows.count()).toBe(3);
        await tip.getByText('+3 more', { exact: true }).waitFor();
        const lines = await rows.evaluateAll((els) =>
          els.map((e) => e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight || '16')),
        );
        expect(
          lines.every((n) => n < 1.6),
          String(lines),
        ).toBe(true);
        const box = (await tip.boundingBox())!;
        expect(box.height).toBeLessThan(plot.height / 2);
        expect(box.x + box.width).toBeLessThanOrEqual(plot.x + plot.width + 60);
        await screenshot(page, 'groups-phone-readout');
      });
  });

  it("keeps the runs charts' removed panels and log scales when grouped", async () => {
    await withPage(dash, { ...DESKTOP, signIn: path }, async ({ page }) => {
      const figure = (name: string) => page.getByRole('figure', { name, exact: true });
      await drawn(page, 'val/acc');
      await figure('val/acc').getByRole('button', { name: 'Chart settings' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Remove panel' }).click();
      await figure('train/loss').getByRole('button', { name: 'Chart settings' }).click();
      await page.getByRole('dialog').getByRole('combobox', { name: 'Log scale' }).selectOption({ label: 'On' });
      await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
      await expect.poll(() => figure('val/acc').count()).toBe(0);

      await page.getByText('Group by', { exact: true }).click();
      await page.getByRole('checkbox', { name: 'lr', exact: true }).check();
      await page.keyboard.press('Escape');
      await page.getByRole('heading', { name: 'Charts by group' }).waitFor();
      await drawn(page, 'train/loss');
      expect(await figure('val/acc').count()).toBe(0);
      expect(await figure('train/loss').locator('.chart-meta').textContent()).toContain('log scale');
      await screenshot(page, 'groups-layout');
    });
  });

  it("shows each group's whole name and mean ± std, on a desktop and on a phone", async () => {
    const url = `${path}?group=config.lr,config.optimizer&col=metric:last:val/acc&col=metric:last:train/loss`;
    for (const size of [DESKTOP, PHONE])
      await withPage(dash, { ...size, signIn: url }, async ({ page }) => {
        const table = page.getByRole('region', { name: 'Runs table' });
        await table.getByRole('button', { name: /lr=0.0003, adamw$/ }).waitFor();
        await expect.poll(() => table.getByRole('cell', { name: /±/ }).count()).toBe(12);
        // Nothing in a group row is cut off with an ellipsis.
        const cut = await table
          .locator('tr.group-row th, tr.group-row td, tr.group-row button, thead th')
          .evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent));
        expect(cut).toEqual([]);
        await noSidewaysScroll(page);
        // An open group's long run names wrap: the first mean ± std stays in sight.
        await table.getByRole('button', { name: /lr=0.001, sgd$/ }).click();
        await expect.poll(() => table.locator('tr.group-run a').count()).toBe(4);
        const box = (await table.boundingBox())!;
        const first = (await table.getByRole('cell', { name: /±/ }).first().boundingBox())!;
        expect(first.x + first.width).toBeLessThanOrEqual(box.x + box.width);
      });
  });

  it('leaves a run hidden with its eye out of its group: "· 3 runs" and a line that moves', async () => {
    await withPage(dash, { ...DESKTOP, signIn: `${path}?group=config.lr,config.optimizer` }, async ({ page }) => {
      const legend = page.getByRole('list', { name: 'Groups' });
      await expect.poll(() => legend.getByRole('listitem').nth(3).textContent()).toBe('lr=0.001, sgd · 4 runs');
      await drawn(page, 'train/loss');
      const before = await groupCsv(page, 'train/loss', 'lr=0.001, sgd');
      expect(before[0]![0]).toBe(4);

      const table = page.getByRole('region', { name: 'Runs table' });
      await table.getByRole('button', { name: /lr=0.001, sgd$/ }).click();
      const eye = table.getByRole('button', { name: 'Show sgd-lr0.001-seed0 in charts' });
      await eye.click();
      await expect(eye.getAttribute('aria-pressed')).resolves.toBe('false');
      expect(new URL(page.url()).searchParams.get('hide')).toBe(String(runs[12]!.runId));

      await expect.poll(() => legend.getByRole('listitem').nth(3).textContent()).toBe('lr=0.001, sgd · 3 runs');
      expect(await legend.getByRole('listitem').nth(2).textContent()).toBe('lr=0.001, adamw · 4 runs');
      await expect
        .poll(() => table.locator('tr.group-row .group-count').allTextContents())
        .toEqual(['4 runs', '4 runs', '4 runs', '3 runs', '4 runs', '4 runs']);
      await drawn(page, 'train/loss');
      const after = await groupCsv(page, 'train/loss', 'lr=0.001, sgd');
      expect(after.map(([n]) => n)).toEqual(before.map(() => 3));
      // Seed 0 had the lowest loss (noise 0.94): without it the group's mean rises.
      expect(after[0]![1]).toBeCloseTo((2 * (0.98 + 1.02 + 1.06)) / 3, 9);
      expect(after[0]![1]).toBeGreaterThan(before[0]![1]);
      // The hidden run is still listed in its open group, its eye off.
      await expect.poll(() => table.locator('tr.group-run a').count()).toBe(4);
      await screenshot(page, 'groups-hidden-run');
    });
  });

  it("shows a min column's group mean ± std over the runs' minimums", async () => {
    const url = `${path}?group=config.lr,config.optimizer&col=metric:min:val/acc`;
    await withPage(dash, { ...DESKTOP, signIn: url }, async ({ page }) => {
      const table = page.getByRole('region', { name: 'Runs table' });
      await table.getByRole('columnheader', { name: 'val/acc (min, mean ± std)' }).waitFor();
      const row = table.locator('tr.group-row').first();
      await expect.poll(() => row.getByRole('cell', { name: /±/ }).count()).toBe(1);
      const text = (await row.getByRole('cell', { name: /±/ }).textContent())!;
      const m = /^(-?[\d.e+-]+) ± ([\d.e+-]+)$/.exec(text);
      expect(m, text).not.toBeNull();
      // val/acc rises from 1 - noise / 2 at step 0; the seeds' noise is 0.94, 0.98, 1.02, 1.06.
      const mins = [0.94, 0.98, 1.02, 1.06].map((noise) => 1 - noise / 2);
      const mean = mins.reduce((a, b) => a + b, 0) / 4;
      const std = Math.sqrt(mins.reduce((a, v) => a + (v - mean) ** 2, 0) / 3);
      expect(Number(m![1])).toBeCloseTo(mean, 3);
      expect(Number(m![2])).toBeCloseTo(std, 3);
    });
  });

  it('shows a config column in group rows: the shared value, else "N values" with them in its title', async () => {
    const url = `${path}?group=config.lr&col=config:optimizer&col=config:lr&col=config:seed`;
    await withPage(dash, { ...DESKTOP, signIn: url }, async ({ page }) => {
      const table = page.getByRole('region', { name: 'Runs table' });
      const row = table.locator('tr.group-row').first();
      await row.getByRole('button', { name: /lr=0.0003$/ }).waitFor();
      await expect
        .poll(() => row.locator('td').allTextContents())
        .toEqual(['8 runs', '2 values', '0.0003', '4 values']);
      const cells = row.locator('td');
      await expect(cells.nth(1).getAttribute('title')).resolves.toBe('adamw, sgd');
      await expect(cells.nth(3).getAttribute('title')).resolves.toBe('0, 1, 2, 3');
      await screenshot(page, 'groups-config-columns');
    });
  });

  it('names a table of one group in the singular', async () => {
    await withPage(dash, { ...DESKTOP, signIn: `${path}?group=status` }, async ({ page }) => {
      const table = page.getByRole('table', { name: '1 group of runs by status' });
      await table.getByRole('button', { name: /RUNNING$/ }).waitFor();
    });
  });

  it('keeps the grouping in the URL and fits a phone', async () => {
    await withPage(dash, { ...PHONE, signIn: `${path}?group=config.optimizer&band=stderr` }, async ({ page }) => {
      const table = page.getByRole('region', { name: 'Runs table' });
      await expect
        .poll(() => table.locator('tr.group-row .group-count').allTextContents())
        .toEqual(['12 runs', '12 runs']);
      await noSidewaysScroll(page);
      await page.getByRole('group', { name: 'Show' }).getByRole('button', { name: 'Charts' }).click();
      await expect(page.getByRole('combobox', { name: 'Band' }).inputValue()).resolves.toBe('stderr');
      await noSidewaysScroll(page);
      await screenshot(page, 'groups-phone');
    });
  });

  it('groups the compared runs on the compare page, ungrouped charts as before', async () => {
    // The lr=0.001 runs (seedSweep's second eight): 4 adamw and 4 sgd.
    const ids = runs.slice(8, 16).map((r) => r.runId);
    const compare = `${path}/compare?runs=${ids.join(',')}`;
    await withPage(dash, { ...DESKTOP, signIn: compare }, async ({ page }) => {
      await drawn(page, 'train/loss');
      // Ungrouped: one legend entry per run, as before.
      await expect
        .poll(() => page.getByRole('list', { name: 'Runs', exact: true }).getByRole('listitem').count())
        .toBe(8);
      await page.getByText('Group by', { exact: true }).click();
      await page.getByRole('checkbox', { name: /^optimizer/ }).check();
      await page.keyboard.press('Escape');
      const legend = page.getByRole('list', { name: 'Groups' });
      await expect
        .poll(() => legend.getByRole('listitem').allTextContents())
        .toEqual(['adamw · 4 runs', 'sgd · 4 runs']);
      await drawn(page, 'train/loss');
      await expect(
        page.locator('figure[aria-label="train/loss"] .chart-meta').first().textContent(),
      ).resolves.toContain('2 groups');
      await screenshot(page, 'groups-compare');
    });
  });

  it('leaves a run hidden on the compare page (hide=) out of its group', async () => {
    const ids = runs.slice(8, 16).map((r) => r.runId);
    const url = `${path}/compare?runs=${ids.join(',')}&hide=${runs[12]!.runId}&group=config.optimizer`;
    await withPage(dash, { ...DESKTOP, signIn: url }, async ({ page }) => {
      const legend = page.getByRole('list', { name: 'Groups' });
      await expect
        .poll(() => legend.getByRole('listitem').allTextContents())
        .toEqual(['adamw · 4 runs', 'sgd · 3 runs']);
      await drawn(page, 'train/loss');
    });
  });

  it("keeps the compare charts' removed panels when the compared runs are grouped", async () => {
    const ids = runs.slice(8, 16).map((r) => r.runId);
    await withPage(dash, { ...DESKTOP, signIn: `${path}/compare?runs=${ids.join(',')}` }, async ({ page }) => {
      const figure = (name: string) => page.getByRole('figure', { name, exact: true });
      await drawn(page, 'val/acc');
      await figure('val/acc').getByRole('button', { name: 'Chart settings' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Remove panel' }).click();
      await expect.poll(() => figure('val/acc').count()).toBe(0);
      await page.getByText('Group by', { exact: true }).click();
      await page.getByRole('checkbox', { name: /^optimizer/ }).check();
      await page.keyboard.press('Escape');
      await page.getByRole('list', { name: 'Groups' }).waitFor();
      await drawn(page, 'train/loss');
      expect(await figure('val/acc').count()).toBe(0);
    });
  });

  // Last: it adds a run to the project, which the tests above count.
  it('groups only the compared runs, not another run of the same name', async () => {
    const twin = await createRunHttp(dash.base, dash.key, {
      runName: 'adamw-lr0.001-seed0',
      projectName: PROJECT,
      config: JSON.stringify({ lr: 0.001, optimizer: 'adamw', seed: 9 }),
    });
    await ingestMetricsHttp(dash.base, dash.key, twin.runId, PROJECT, [metricLine(0, { 'train/loss': 5 })]);
    const ids = runs.slice(8, 16).map((r) => r.runId);
    const url = `${path}/compare?runs=${ids.join(',')}&group=config.optimizer`;
    await withPage(dash, { ...DESKTOP, signIn: url }, async ({ page }) => {
      const legend = page.getByRole('list', { name: 'Groups' });
      await expect
        .poll(() => legend.getByRole('listitem').allTextContents())
        .toEqual(['adamw · 4 runs', 'sgd · 4 runs']);
      await drawn(page, 'train/loss');
    });
  });
});
