/**
 * The compare page of a sweep on a phone (390×844, issue 27 bug 6): the run list starts
 * folded to a line whatever the number of runs, so the charts' legend is the one list of runs
 * in view and the whole first chart is on the first screen; the list opens on its toggle and
 * nothing scrolls sideways.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot, useDashboard } from '../helpers/browser.js';
import { PHONE, withPage } from '../helpers/with-page.js';
import { createRunHttp, ingestMetricsHttp, noSidewaysScroll, type SeededRun, orgOf } from '../helpers/browser-seed.js';
import { metricLine } from '../helpers/ingest-api.js';

const PROJECT = 'phone-sweep';
const RUNS = 12;

/** Names as a sweep gives them: 3 learning rates × 2 optimizers × 2 seeds. */
const nameOf = (i: number) =>
  `resnet18-${i % 2 ? 'adamw' : 'sgd'}-lr${[0.001, 0.0003, 0.003][i % 3]}-seed${Math.floor(i / 6)}`;

describe('the compare page on a phone', () => {
  const dash = useDashboard();
  const runs: SeededRun[] = [];
  let org: string;
  const comparePath = (count: number) =>
    `/o/${org}/projects/${PROJECT}/compare?runs=${runs
      .slice(0, count)
      .map((r) => r.runId)
      .join(',')}`;

  beforeAll(async () => {
    for (let i = 0; i < RUNS; i++) {
      const run = await createRunHttp(dash.base, dash.key, { runName: nameOf(i), projectName: PROJECT });
      runs.push(run);
      const lines = Array.from({ length: 40 }, (_, step) =>
        metricLine(step, {
          'train/loss': (1 + i / 10) / (step + 1),
          'train/acc': 1 - 1 / (step + 2 + i),
          'val/loss': (1.2 + i / 10) / (step + 1),
        }),
      );
      await ingestMetricsHttp(dash.base, dash.key, run.runId, PROJECT, lines);
    }
    org = orgOf(runs[0]!);
  });

  // Eight is the most that the desktop layout lists open; twelve is the sweep.
  it.each([8, RUNS])('shows the whole first chart on the first screen with %i runs', async (count) => {
    await withPage(dash, { ...PHONE, signIn: comparePath(count) }, async ({ page }) => {
      const charts = page.getByRole('region', { name: 'Charts', exact: true });
      const first = charts.locator('figure').first();
      await first.waitFor();
      const legend = page.getByRole('list', { name: 'Runs' });
      await legend.getByRole('button', { name: nameOf(count - 1) }).waitFor();
      const box = (await first.boundingBox())!;
      expect(box.y, 'the first chart starts on the first screen').toBeLessThan(PHONE.height);
      expect(box.y + box.height, 'the first chart ends on the first screen').toBeLessThanOrEqual(PHONE.height);
      // The run list is folded to one line: the charts' legend is the only list of runs in view.
      const list = page.getByRole('list', { name: 'Compared runs' });
      expect(await list.isVisible()).toBe(false);
      await page.getByText(`${count} runs`, { exact: true }).waitFor();
      await noSidewaysScroll(page);
      await screenshot(page, `compare-phone-${count}-runs`);
      // Its toggle opens the run list, with links to the runs.
      await page.getByRole('button', { name: 'Show runs', expanded: false }).click();
      await list.getByRole('link', { name: nameOf(0) }).waitFor();
      await noSidewaysScroll(page);
    });
  });

  it('lists a few runs open at desktop width', async () => {
    await withPage(dash, { width: 1440, height: 900, signIn: comparePath(3) }, async ({ page }) => {
      const list = page.getByRole('list', { name: 'Compared runs' });
      await list.getByRole('link', { name: nameOf(2) }).waitFor();
      expect(await page.getByRole('button', { name: 'Show runs' }).count()).toBe(0);
    });
  });
});
