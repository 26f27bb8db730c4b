/**
 * The project page as a workspace (issue 27): the charts of the runs the table shows beside
 * it, each run in one colour (table swatch, legend, charts), an eye per row that hides a run
 * from the charts, a hovered row or legend entry drawn highlighted, a note when more runs
 * match than are charted, and a phone width with a Runs / Charts switch and no sideways scroll.
 */
import type { Locator, Page } from 'playwright-core';
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
import { metricLine } from '../helpers/ingest-api.js';

const PROJECT = 'sweep';
const CROWD = 'crowd';
const RUNS = 24;
const CROWD_RUNS = 101;
const DESKTOP = { width: 1440, height: 900 } as const;

/** A sweep's names: 3 learning rates × 2 optimizers × 4 seeds. */
const nameOf = (i: number) => `resnet18-${i % 2 ? 'adamw' : 'sgd'}-lr${[0.001, 0.0003, 0.003][i % 3]}-seed${i}`;

/** Each swatch's look: its colour and its line pattern (none when solid). */
const looksOf = (swatches: Locator) =>
  swatches.evaluateAll((els) =>
    els.map((el) => {
      const style = getComputedStyle(el);
      return `${style.backgroundColor}|${style.backgroundImage}`;
    }),
  );

const legendOf = (page: Page) => page.getByRole('list', { name: 'Runs' });
const eyeOf = (page: Page, name: string) => page.getByRole('button', { name: `Show ${name} in charts`, exact: true });

describe('the project workspace', () => {
  const dash = useDashboard();
  const runs: SeededRun[] = [];
  let projectPath: string;
  let crowdPath: string;

  beforeAll(async () => {
    // One run at a time: the shared server refuses a flood of writes (503 OVERLOADED).
    for (let i = 1; i <= RUNS; i++) {
      const run = await createRunHttp(dash.base, dash.key, { runName: nameOf(i), projectName: PROJECT });
      runs.push(run);
      const lines = Array.from({ length: 40 }, (_, step) =>
        metricLine(step, { 'train/loss': (1 + i / 10) / (step + 1), 'val/acc': 1 - 1 / (step + 1 + i) }),
      );
      await ingestMetricsHttp(dash.base, dash.key, run.runId, PROJECT, lines);
    }
    const org = orgOf(runs[0]!);
    projectPath = `/o/${org}/projects/${PROJECT}`;
    crowdPath = `/o/${org}/projects/${CROWD}`;
    for (let i = 1; i <= CROWD_RUNS; i++) {
      await createRunHttp(dash.base, dash.key, { runName: `short-${i}`, projectName: CROWD });
    }
  });

  it('charts 24 runs in 24 looks, each row swatch in its run’s legend colour', async () => {
    await withPage(dash, { ...DESKTOP, signIn: projectPath }, async ({ page }) => {
      await drawn(page, 'train/loss');
      await drawn(page, 'val/acc');
      const legend = legendOf(page);
      await legend.getByRole('button', { name: nameOf(1), exact: true }).waitFor();
      const looks = await looksOf(legend.locator('.chart-swatch'));
      expect(looks).toHaveLength(RUNS);
      expect(new Set(looks).size, looks.join('\n')).toBe(RUNS);
      // The table's swatch of a run is its legend swatch.
      for (const i of [1, 7, 21, 24]) {
        const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: nameOf(i), exact: true }) });
        const [rowLook] = await looksOf(row.locator('.row-swatch'));
        const [legendLook] = await looksOf(
          legend.getByRole('button', { name: nameOf(i), exact: true }).locator('.chart-swatch'),
        );
        expect(rowLook).toBe(legendLook);
      }
      // Side by side at 1440 px: the charts start beside the table, not below it.
      const table = (await page.getByRole('region', { name: 'Runs table' }).boundingBox())!;
      const chart = (await page.locator('figure[aria-label="train/loss"]').boundingBox())!;
      expect(chart.x).toBeGreaterThan(table.x + table.width - 1);
      expect(chart.y).toBeLessThan(DESKTOP.height);
      await noSidewaysScroll(page);
      await screenshot(page, 'workspace-desktop');
    });
  });

  it('hides a run from the charts with its eye, and shows it again', async () => {
    await withPage(dash, { ...DESKTOP, signIn: projectPath }, async ({ page }) => {
      await drawn(page, 'train/loss');
      const legend = legendOf(page);
      const shownInLegend = () => legend.locator('button[aria-pressed="true"]').count();
      await expect.poll(shownInLegend).toBe(RUNS);
      const name = nameOf(5);
      const eye = eyeOf(page, name);
      expect(await eye.getAttribute('aria-pressed')).toBe('true');
      await eye.click();
      await expect.poll(() => eye.getAttribute('aria-pressed')).toBe('false');
      await expect.poll(shownInLegend).toBe(RUNS - 1);
      expect(await legend.getByRole('button', { name, exact: true }).getAttribute('aria-pressed')).toBe('false');
      await expect.poll(() => new URL(page.url()).searchParams.get('hide')).toBe(String(runs[4]!.runId));
      await drawn(page, 'train/loss');
      // A filter change keeps the hidden run hidden (the URL keeps `hide`).
      await page.getByRole('searchbox').first().fill('resnet');
      await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('resnet');
      expect(new URL(page.url()).searchParams.get('hide')).toBe(String(runs[4]!.runId));
      await eye.click();
      await expect.poll(shownInLegend).toBe(RUNS);
      await expect.poll(() => new URL(page.url()).searchParams.get('hide')).toBeNull();
    });
  });

  it('highlights the run of a hovered row or legend entry on every chart', async () => {
    await withPage(dash, { ...DESKTOP, signIn: projectPath }, async ({ page }) => {
      await drawn(page, 'train/loss');
      await drawn(page, 'val/acc');
      const target = runs[2]!;
      await page.getByRole('link', { name: nameOf(3), exact: true }).hover();
      for (const logName of ['train/loss', 'val/acc']) {
        await expect
          .poll(() => page.locator(`figure[aria-label="${logName}"]`).getAttribute('data-highlighted-run'))
          .toBe(String(target.runId));
      }
      const entry = legendOf(page).getByRole('button', { name: nameOf(3), exact: true });
      expect(await entry.getAttribute('class')).toContain('highlighted');
      await screenshot(page, 'workspace-highlight');
      // Away from the rows: nothing highlighted.
      await page.getByRole('heading', { level: 1 }).hover();
      await expect
        .poll(() => page.locator('figure[aria-label="train/loss"]').getAttribute('data-highlighted-run'))
        .toBeNull();
      // A legend entry highlights its run too.
      await legendOf(page)
        .getByRole('button', { name: nameOf(8), exact: true })
        .hover();
      await expect
        .poll(() => page.locator('figure[aria-label="train/loss"]').getAttribute('data-highlighted-run'))
        .toBe(String(runs[7]!.runId));
    });
  });

  it('notes that only the first 100 of more matching runs are charted', async () => {
    await withPage(dash, { ...DESKTOP, signIn: crowdPath }, async ({ page }) => {
      await page.getByText(`Charting the first 100 of ${CROWD_RUNS} matching runs`).waitFor();
      // The newest run (first row) is charted; the oldest (row 101) is not.
      await eyeOf(page, `short-${CROWD_RUNS}`).waitFor();
      await page.getByText(`${CROWD_RUNS} runs`, { exact: true }).waitFor();
      await page.getByRole('searchbox').first().fill('short-10');
      // short-10 and short-100, short-101: all charted, no note.
      await page.getByText('3 runs match').waitFor();
      await expect.poll(() => page.getByText(/^Charting the first/).count()).toBe(0);
    });
  });

  it('charts a metric a running run starts logging while the page is open', async () => {
    const project = 'live-names';
    const run = await createRunHttp(dash.base, dash.key, { runName: 'live-run', projectName: project });
    await ingestMetricsHttp(dash.base, dash.key, run.runId, project, [metricLine(0, { 'train/loss': 1 })]);
    const org = orgOf(run);
    await withPage(dash, { ...DESKTOP, signIn: `/o/${org}/projects/${project}` }, async ({ page }) => {
      await drawn(page, 'train/loss');
      expect(await page.locator('figure[aria-label="val/new"]').count()).toBe(0);
      await ingestMetricsHttp(dash.base, dash.key, run.runId, project, [metricLine(1, { 'val/new': 0.5 })]);
      // The names of a RUNNING run's charts are asked again every few seconds.
      await drawn(page, 'val/new');
    });
  });

  it('switches between runs and charts on a phone without sideways scroll', async () => {
    await withPage(dash, { ...PHONE, signIn: projectPath }, async ({ page }) => {
      await page.getByRole('link', { name: nameOf(RUNS), exact: true }).waitFor();
      await noSidewaysScroll(page);
      expect(await page.locator('figure[aria-label="train/loss"]').isVisible()).toBe(false);
      await screenshot(page, 'workspace-phone-runs');
      await page.getByRole('group', { name: 'Show' }).getByRole('button', { name: 'Charts' }).click();
      await drawn(page, 'train/loss');
      await drawn(page, 'val/acc');
      expect(await page.getByRole('link', { name: nameOf(RUNS), exact: true }).isVisible()).toBe(false);
      await noSidewaysScroll(page);
      await screenshot(page, 'workspace-phone-charts');
    });
  });
});
