/**
 * `sys/*` series wherever runs are charted (issue 27, bugs 1 and 2): sampled by the clock (as
 * the pluto client sends them, every sample at step 0), they go to a System section against
 * relative time on the compare page and on a fork (which inherits its parent's), never to the
 * step charts; and a step zoom does not empty the System tab's time-axis charts.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasInk, screenshot, useDashboard } from '../helpers/browser.js';
import { withPage } from '../helpers/with-page.js';
import { createRunHttp, drawn, ingestMetricsHttp, pathOf, type SeededRun, orgOf } from '../helpers/browser-seed.js';
import { metricLine, type PyValue } from '../helpers/ingest-api.js';

const PROJECT = 'system-series';
const T0 = Date.UTC(2026, 0, 12, 8, 0, 0);

const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const panel = (page: Page, name: string) => page.getByRole('tabpanel', { name });

/** A run with `train/loss` over steps 1..40 and `sys/cpu`, `sys/mem` sampled at step 0 every 10 s. */
async function seedRun(base: string, key: string, runName: string, scale: number): Promise<SeededRun> {
  const run = await createRunHttp(base, key, { runName, projectName: PROJECT, createdAt: T0 });
  const lines: PyValue[] = [];
  for (let i = 0; i < 6; i++)
    lines.push(metricLine(0, { 'sys/cpu': 20 + scale * i, 'sys/mem': 40 + i }, T0 + i * 10_000));
  for (let step = 1; step <= 40; step++) lines.push(metricLine(step, { 'train/loss': scale / step }, T0 + step * 1000));
  await ingestMetricsHttp(base, key, run.runId, PROJECT, lines);
  return run;
}

describe('system series', () => {
  const dash = useDashboard();
  let a: SeededRun;
  let b: SeededRun;
  let fork: SeededRun;
  let org: string;

  beforeAll(async () => {
    a = await seedRun(dash.base, dash.key, 'sys-a', 2);
    b = await seedRun(dash.base, dash.key, 'sys-b', 3);
    fork = await createRunHttp(dash.base, dash.key, {
      runName: 'sys-fork',
      projectName: PROJECT,
      forkRunId: a.runId,
      forkStep: 20,
      createdAt: T0 + 60_000,
    });
    const own = Array.from({ length: 20 }, (_, i) => metricLine(21 + i, { 'train/loss': 0.5 / (i + 1) }));
    await ingestMetricsHttp(dash.base, dash.key, fork.runId, PROJECT, own);
    org = orgOf(a);
  });

  it('puts sys/ series in a System section against relative time on the compare page', async () => {
    const path = `/o/${org}/projects/${PROJECT}/compare?runs=${a.runId},${b.runId}`;
    await withPage(dash, { width: 1440, height: 900, signIn: path }, async ({ page }) => {
      const charts = section(page, 'Charts');
      await drawn(page, 'train/loss');
      // The step charts: no sys/ series, and the first chart is a metric.
      expect(await charts.locator('figure[aria-label^="sys/"]').count()).toBe(0);
      expect(await charts.locator('figure').first().getAttribute('aria-label')).toBe('train/loss');
      // The System section: sys/ series against relative time, drawn.
      const system = section(page, 'System');
      await system.locator('figure[aria-label="sys/cpu"][aria-busy="false"]').waitFor({ timeout: 15_000 });
      expect(await system.getByLabel('X axis').inputValue()).toBe('relative');
      expect(await hasInk(page, 'figure[aria-label="sys/cpu"]')).toBe(true);
      expect(await system.locator('figure[aria-label="train/loss"]').count()).toBe(0);
      // Its axis is its own: the step charts keep theirs.
      await system.getByLabel('X axis').selectOption({ label: 'Wall time' });
      expect(await charts.getByLabel('X axis').inputValue()).toBe('step');
      await screenshot(page, 'compare-system');
    });
  });

  it("starts a fork's inherited system samples at zero beside its parent's on the compare page", async () => {
    const path = `/o/${org}/projects/${PROJECT}/compare?runs=${a.runId},${fork.runId}`;
    await withPage(dash, { width: 1440, height: 900, signIn: path }, async ({ page }) => {
      const system = section(page, 'System');
      const cpu = system.locator('figure[aria-label="sys/cpu"]');
      await system.locator('figure[aria-label="sys/cpu"][aria-busy="false"]').waitFor({ timeout: 15_000 });
      // The fork was created a minute after its parent's samples: they must not land at −1m
      // and squash the parent's 50 s of samples into the chart's right edge.
      const box = (await cpu.locator('.u-over').boundingBox())!;
      await page.mouse.move(box.x + 2, box.y + box.height / 2);
      const head = cpu.locator('.chart-tip-head');
      await head.waitFor();
      expect(await head.textContent()).toMatch(/^0s( ·|$)/);
      await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
      await expect.poll(() => head.textContent()).toMatch(/^(49|50)s( ·|$)/);
      await screenshot(page, 'compare-system-fork');
    });
  });

  it('keeps the System section beside the grouped charts of the project page', async () => {
    await withPage(
      dash,
      { width: 1440, height: 900, signIn: `/o/${org}/projects/${PROJECT}?group=status` },
      async ({ page }) => {
        await page.getByRole('list', { name: 'Groups' }).waitFor();
        const system = section(page, 'System');
        await system.locator('figure[aria-label="sys/cpu"][aria-busy="false"]').waitFor({ timeout: 15_000 });
        expect(await hasInk(page, 'figure[aria-label="sys/cpu"]')).toBe(true);
        expect(await system.getByLabel('X axis').inputValue()).toBe('relative');
      },
    );
  });

  it("gives a fork a System tab with its parent's sys/ series, and Charts none of them", async () => {
    await withPage(dash, { signIn: fork.path }, async ({ page }) => {
      await page.getByRole('heading', { level: 1, name: 'sys-fork' }).waitFor();
      const charts = panel(page, 'Charts');
      await charts.locator('figure[aria-label="train/loss"][aria-busy="false"]').waitFor({ timeout: 15_000 });
      expect(await charts.locator('figure[aria-label^="sys/"]').count()).toBe(0);
      await page.getByRole('tab', { name: 'System' }).click();
      const system = panel(page, 'System');
      await system.locator('figure[aria-label="sys/cpu"][aria-busy="false"]').waitFor({ timeout: 15_000 });
      expect(await system.getByLabel('X axis').inputValue()).toBe('relative');
      expect(await hasInk(page, 'figure[aria-label="sys/cpu"]')).toBe(true);
    });
  });

  it('keeps a step zoom out of the System tab, whose axis is time', async () => {
    await withPage(dash, { signIn: `${pathOf(a.url)}?zoom=25-35` }, async ({ page }) => {
      const charts = panel(page, 'Charts');
      await charts.locator('figure[aria-label="train/loss"][aria-busy="false"]').waitFor({ timeout: 15_000 });
      expect(await charts.locator('figure[aria-label="train/loss"] figcaption').textContent()).toContain('steps 25–35');
      await page.getByRole('tab', { name: 'System' }).click();
      const system = panel(page, 'System');
      const cpu = system.locator('figure[aria-label="sys/cpu"]');
      await system.locator('figure[aria-label="sys/cpu"][aria-busy="false"]').waitFor({ timeout: 15_000 });
      expect(await cpu.textContent()).not.toContain('No points in this step range');
      expect(await hasInk(page, 'figure[aria-label="sys/cpu"]')).toBe(true);
      expect(await cpu.locator('figcaption').textContent()).not.toContain('steps 25');
      expect(await system.getByRole('button', { name: 'Reset zoom' }).count()).toBe(0);
      // The step charts keep the zoom.
      expect(new URL(page.url()).searchParams.get('zoom')).toBe('25-35');
    });
  });
});
