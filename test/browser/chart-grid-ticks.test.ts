/**
 * The chart grid's rough edges in Chromium: x tick labels never overlap on charts 390 px and
 * ~460 px wide (steps 0–20,000, relative and wall time, grouped charts too), read from the
 * labels uPlot drew (`data-x-ticks`, x-ticks.ts), and a section with one chart spreads it
 * over the row at 1440×900 instead of leaving half of it blank.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot, useDashboard } from '../helpers/browser.js';
import {
  createRunHttp,
  drawn,
  ingestMetricsHttp,
  scrollIntoView,
  type SeededRun,
  orgOf,
} from '../helpers/browser-seed.js';
import { metricLine } from '../helpers/ingest-api.js';
import { PHONE, withPage } from '../helpers/with-page.js';
import { seedSweep } from './sweep-seed.js';

const PROJECT = 'tick-widths';
const SWEEP = 'tick-widths-sweep';
/** A window whose run page lays charts two a row, each about 460 px wide. */
const MEDIUM = { width: 1010, height: 900 } as const;
const DESKTOP = { width: 1440, height: 900 } as const;
const T0 = 1_700_000_000_000;

/** Steps 0–20,000 every 100, 0.9 s apart (a 5-hour run): train/loss, train/acc, train/lr (0.0001–0.0003) and val/acc. */
async function seedLongRun(base: string, key: string): Promise<SeededRun> {
  const run = await createRunHttp(base, key, { runName: 'long-run', projectName: PROJECT });
  const lines = Array.from({ length: 201 }, (_, i) => {
    const step = i * 100;
    return metricLine(
      step,
      {
        'train/loss': 2 / (1 + step / 2000),
        'train/acc': 1 - 1 / (1 + step / 3000),
        'train/lr': 0.0001 + step * 1e-8,
        'val/acc': 0.5 + step / 50_000,
      },
      T0 + step * 900,
    );
  });
  await ingestMetricsHttp(base, key, run.runId, PROJECT, lines);
  return run;
}

type Box = [number, number, string];

/** The x tick labels drawn on the chart of `logName`, each [left, right, label] in CSS px. */
async function xTicks(page: Page, logName: string): Promise<Box[]> {
  const root = page.getByRole('figure', { name: logName, exact: true }).locator('.uplot');
  await expect.poll(() => root.getAttribute('data-x-ticks')).toMatch(/^\[/);
  return JSON.parse((await root.getAttribute('data-x-ticks'))!) as Box[];
}

/** Fails when two neighbouring labels' boxes intersect; returns the chart's width. */
async function expectNoOverlap(page: Page, logName: string): Promise<number> {
  await scrollIntoView(page.getByRole('figure', { name: logName, exact: true }));
  await drawn(page, logName);
  const boxes = await xTicks(page, logName);
  expect(boxes.length, JSON.stringify(boxes)).toBeGreaterThanOrEqual(2);
  for (let i = 1; i < boxes.length; i++) {
    expect(boxes[i]![0], `${logName}: ${JSON.stringify(boxes)}`).toBeGreaterThanOrEqual(boxes[i - 1]![1]);
  }
  return (await page.getByRole('figure', { name: logName, exact: true }).boundingBox())!.width;
}

describe('chart grid and x ticks', () => {
  const dash = useDashboard();
  let run: SeededRun;
  let sweepPath: string;

  beforeAll(async () => {
    run = await seedLongRun(dash.base, dash.key);
    const sweep = await seedSweep(dash.base, dash.key, SWEEP);
    sweepPath = `/o/${orgOf(sweep[0]!)}/projects/${SWEEP}`;
  });

  it('keeps x tick labels apart at 390 px and ~460 px, on step, relative and wall time', async () => {
    for (const size of [PHONE, MEDIUM])
      for (const x of ['step', 'relative', 'wall'])
        await withPage(dash, { ...size, signIn: `${run.path}?x=${x}` }, async ({ page }) => {
          const width = await expectNoOverlap(page, 'train/loss');
          if (size === MEDIUM) {
            expect(width).toBeGreaterThan(420);
            expect(width).toBeLessThan(500);
          } else expect(width).toBeLessThanOrEqual(390);
          if (x === 'step') await screenshot(page, `x-ticks-${size.width}`);
        });
  });

  it('keeps x tick labels apart on a chart drawn against another metric (train/lr: "0.000125")', async () => {
    for (const size of [PHONE, MEDIUM])
      await withPage(dash, { ...size, signIn: run.path }, async ({ page }) => {
        await drawn(page, 'train/acc');
        await page
          .getByRole('figure', { name: 'train/acc', exact: true })
          .getByRole('button', { name: 'Chart settings' })
          .click();
        const dialog = page.getByRole('dialog', { name: /^Chart settings/ });
        await dialog.getByRole('combobox', { name: 'X axis' }).selectOption({ label: 'train/lr' });
        await dialog.getByRole('button', { name: 'Done' }).click();
        await expect
          .poll(() => page.getByRole('figure', { name: 'train/acc', exact: true }).locator('figcaption').textContent())
          .toContain('x: train/lr');
        await expectNoOverlap(page, 'train/acc');
        if (size === MEDIUM) await screenshot(page, 'x-ticks-metric-axis');
      });
  });

  it('keeps grouped charts’ x tick labels apart at 390 px and ~460 px', async () => {
    // 1,640 px: the workspace's charts column lays grouped charts two a row, ~460 px each.
    for (const size of [PHONE, { width: 1640, height: 900 }])
      await withPage(dash, { ...size, signIn: `${sweepPath}?group=config.lr,config.optimizer` }, async ({ page }) => {
        if (size === PHONE)
          await page.getByRole('group', { name: 'Show' }).getByRole('button', { name: 'Charts' }).click();
        const width = await expectNoOverlap(page, 'train/loss');
        if (size === PHONE) expect(width).toBeLessThanOrEqual(390);
        else {
          expect(width).toBeGreaterThan(420);
          expect(width).toBeLessThan(500);
        }
      });
  });

  it('spreads a section’s one chart over the row at 1440×900', async () => {
    await withPage(dash, { ...DESKTOP, signIn: run.path }, async ({ page }) => {
      await drawn(page, 'val/acc');
      const section = page.getByRole('region', { name: /^val \d+$/ });
      const sectionWidth = (await section.boundingBox())!.width;
      const chart = (await section.getByRole('figure', { name: 'val/acc', exact: true }).boundingBox())!.width;
      expect(chart).toBeGreaterThan(sectionWidth * 0.6);
      // A section with two charts still lays them side by side.
      const train = page.getByRole('region', { name: /^train \d+$/ });
      const loss = (await train.getByRole('figure', { name: 'train/loss', exact: true }).boundingBox())!;
      const acc = (await train.getByRole('figure', { name: 'train/acc', exact: true }).boundingBox())!;
      expect(Math.abs(loss.y - acc.y)).toBeLessThan(2);
      await screenshot(page, 'chart-grid-lone-chart');
    });
  });
});
