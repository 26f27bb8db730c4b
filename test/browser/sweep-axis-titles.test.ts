/**
 * The parallel coordinates' axis titles do not run into each other when the axes are close
 * (five axes on a phone): crowded titles take two rows.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useDashboard } from '../helpers/browser.js';
import { PHONE, withPage } from '../helpers/with-page.js';
import { createRunHttp, ingestMetricsHttp } from '../helpers/browser-seed.js';
import { metricLine } from '../helpers/ingest-api.js';

const PROJECT = 'sweep-axis-titles';

describe('the parallel coordinates on a phone', () => {
  const dash = useDashboard();
  let path: string;

  beforeAll(async () => {
    let first = '';
    for (let i = 0; i < 6; i++) {
      const config = {
        batch_size: 64 * (1 + (i % 2)),
        learning_rate: 0.001 * (i + 1),
        optimizer: i % 3 ? 'adamw' : 'sgd',
        seed: i,
      };
      const run = await createRunHttp(dash.base, dash.key, {
        runName: `sweep-${i}`,
        projectName: PROJECT,
        config: JSON.stringify(config),
      });
      first ||= run.path;
      await ingestMetricsHttp(dash.base, dash.key, run.runId, PROJECT, [metricLine(0, { 'train/loss': 1 / (i + 1) })]);
    }
    path = `/o/${first.split('/')[2]!}/projects/${PROJECT}?sweep=1&smetric=train%2Floss`;
  }, 30_000);

  it('keeps the axis titles apart', async () => {
    await withPage(dash, { ...PHONE, signIn: path }, async ({ page }) => {
      const chart = page.getByRole('img', { name: /^Parallel coordinates of 6 runs/ });
      await page.getByRole('button', { name: /^Brush train\/loss:/ }).waitFor();
      const titles = await chart.evaluate((svg) =>
        [...svg.querySelectorAll('text')]
          .filter((t) => t.getAttribute('class') === 'sweep-axis-title')
          .map((t) => {
            const box = t.getBoundingClientRect();
            return { text: t.textContent, left: box.left, right: box.right, top: box.top, bottom: box.bottom };
          }),
      );
      expect(titles.map((t) => t.text)).toEqual(['batch_size', 'learning_rate', 'optimizer', 'seed', 'train/loss']);
      const svgBox = (await chart.boundingBox())!;
      for (const [i, a] of titles.entries()) {
        expect(a.left, a.text!).toBeGreaterThanOrEqual(svgBox.x - 0.5);
        expect(a.right, a.text!).toBeLessThanOrEqual(svgBox.x + svgBox.width + 0.5);
        for (const b of titles.slice(i + 1)) {
          const apart = a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
          expect(apart, `${a.text} and ${b.text} overlap`).toBe(true);
        }
      }
    });
  });
});
