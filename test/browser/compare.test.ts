/**
 * The compare page in Chromium against a spawned server: reached through the
 * `comparisonUrl` of runs/compare it lists the runs with their colours, overlays their
 * charts (both in the legend), shows the statistics of a chosen metric and a config table
 * with only the keys that differ; unknown and foreign ids are named; phone width and dark.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot, signIn, useDashboard } from '../helpers/browser.js';
import { PHONE, withPage } from '../helpers/with-page.js';
import { createRunHttp, ingestMetricsHttp, noSidewaysScroll, pathOf } from '../helpers/browser-seed.js';
import { http } from '../helpers/http-client.js';
import { metricLine } from '../helpers/ingest-api.js';
import { createOrgKey } from '../helpers/spawned-server.js';

const PROJECT = 'compare-demo';

async function createRun(base: string, key: string, runName: string, config: unknown, projectName = PROJECT) {
  return (await createRunHttp(base, key, { runName, projectName, config: JSON.stringify(config) })).runId;
}

async function ingestLoss(base: string, key: string, runId: number, scale: number): Promise<void> {
  const lines = Array.from({ length: 200 }, (_, step) =>
    metricLine(step, { 'train/loss': scale * Math.exp(-step / 60), 'val/acc': 1 - scale / (step + 2) }),
  );
  await ingestMetricsHttp(base, key, runId, PROJECT, lines);
}

describe('the compare page', () => {
  const dash = useDashboard();
  let a: number;
  let b: number;
  let comparisonUrl: string;

  beforeAll(async () => {
    const shared = { batch_size: 32, model: { depth: 50, width: 2 }, data: 'cifar10' };
    a = await createRun(dash.base, dash.key, 'lr-small', { ...shared, optimizer: { name: 'adam', lr: 0.001 } });
    b = await createRun(dash.base, dash.key, 'lr-large', { ...shared, optimizer: { name: 'adam', lr: 0.01 } });
    await ingestLoss(dash.base, dash.key, a, 2);
    await ingestLoss(dash.base, dash.key, b, 3);
    const done = await http(dash.base, 'POST', '/api/runs/status/update', {
      key: dash.key,
      json: { runId: a, status: 'COMPLETED' },
    });
    expect(done.status).toBe(200);
    const compared = await http(
      dash.base,
      'GET',
      `/api/runs/compare?runIds=${a},${b}&projectName=${PROJECT}&logName=train/loss`,
      { key: dash.key },
    );
    expect(compared.status).toBe(200);
    comparisonUrl = String(compared.body.comparisonUrl);
  });

  it('shows both runs in the legend, their statistics and only the config key that differs', async () => {
    await withPage(dash, { signIn: pathOf(comparisonUrl) }, async ({ page }) => {
      expect(pathOf(page.url())).toBe(pathOf(comparisonUrl));
      await page.getByRole('heading', { level: 1, name: 'Compare runs' }).waitFor();
      // The header lists the runs with links to them.
      const runs = page.getByRole('list', { name: 'Compared runs' });
      await runs.getByRole('link', { name: 'lr-small' }).waitFor();
      await runs.getByRole('link', { name: 'lr-large' }).waitFor();
      // The charts' legend has both, in the same colours as the header's swatches.
      const legend = page.getByRole('list', { name: 'Runs' });
      await legend.getByRole('button', { name: 'lr-small' }).waitFor();
      await legend.getByRole('button', { name: 'lr-large' }).waitFor();
      const swatches = await runs
        .locator('.swatch')
        .evaluateAll((els) => els.map((el) => getComputedStyle(el).backgroundColor));
      const legendSwatches = await legend
        .locator('.chart-swatch')
        .evaluateAll((els) => els.map((el) => getComputedStyle(el).backgroundColor));
      expect(legendSwatches).toEqual(swatches);
      expect(new Set(swatches).size).toBe(2);

      // Statistics of the chosen metric, one row per run.
      const metric = page.getByLabel('Metric');
      await expect.poll(() => metric.inputValue()).toBe('train/loss');
      const stats = page.getByRole('table', { name: 'Statistics of train/loss per run' });
      const small = stats.getByRole('row', { name: /lr-small/ });
      await small.waitFor();
      await expect.poll(() => small.textContent()).toContain('200');
      expect(await small.getByRole('cell').nth(2).textContent()).toBe('2'); // max = first value 2·e⁰
      await metric.selectOption('val/acc');
      await page.getByRole('table', { name: 'Statistics of val/acc per run' }).waitFor();
      expect(new URL(page.url()).searchParams.get('metric')).toBe('val/acc');

      // The config table: only optimizer.lr differs.
      const config = page.getByRole('table', { name: 'Config keys whose values differ between the runs' });
      await config.waitFor();
      const keys = await config.locator('tbody th').allTextContents();
      expect(keys).toEqual(['optimizer.lr']);
      expect(await config.getByRole('row', { name: /optimizer\.lr/ }).textContent()).toMatch(/0\.001.*0\.01/);
      await page.getByText('1 of 6 keys differ').waitFor();
      await screenshot(page, 'compare');

      await page.getByLabel('Show all keys').check();
      const all = page.getByRole('table', { name: 'Config of each run' });
      expect(await all.locator('tbody th').allTextContents()).toEqual([
        'batch_size',
        'data',
        'model.depth',
        'model.width',
        'optimizer.lr',
        'optimizer.name',
      ]);
    });
  });

  it('says when all configs match, and names unknown, foreign and malformed ids', async () => {
    const shared = { lr: 0.1, layers: [1, 2, 3] };
    const c = await createRun(dash.base, dash.key, 'twin-one', shared);
    const d = await createRun(dash.base, dash.key, 'twin-two', shared);
    const elsewhere = await createRun(dash.base, dash.key, 'other-project-run', shared, 'another-project');
    const rivalKey = await createOrgKey(dash.server.dataDir, 'rival');
    const foreign = await http(dash.base, 'POST', '/api/runs/create', {
      key: rivalKey,
      json: { runName: 'rival-secret', projectName: PROJECT },
    });
    expect(foreign.status, JSON.stringify(foreign.body)).toBe(200);
    const foreignId = Number(foreign.body.runId);
    const org = new URL(comparisonUrl).pathname.split('/')[2]!;

    await withPage(dash, { expectedStatuses: [404] }, async ({ page }) => {
      await signIn(
        page,
        dash.base,
        dash.key,
        `/o/${org}/projects/${PROJECT}/compare?runs=${c},${d},${foreignId},99999,abc,${elsewhere}`,
      );
      const alert = page.getByRole('alert');
      await alert.getByText(`Runs ${foreignId}, 99999 were not found in your organization`).waitFor();
      await alert.getByText('Not run ids: “abc”').waitFor();
      await alert.getByText(/belongs to project another-project/).waitFor();
      expect(await page.getByText('rival-secret').count()).toBe(0);
      await page.getByText('All configs match').waitFor();
      const runs = page.getByRole('list', { name: 'Compared runs' });
      expect(await runs.getByRole('listitem').count()).toBe(2);
      await screenshot(page, 'compare-problems');
    });
  });

  it('fits a phone screen in the dark theme', async () => {
    await withPage(dash, { ...PHONE, colorScheme: 'dark', signIn: pathOf(comparisonUrl) }, async ({ page }) => {
      await page.getByRole('table', { name: 'Config keys whose values differ between the runs' }).waitFor();
      await page.getByRole('table', { name: 'Statistics of train/loss per run' }).waitFor();
      await noSidewaysScroll(page);
      await screenshot(page, 'compare-phone-dark');
    });
  });
});
