/**
 * A console message of several lines (a Python traceback) is shown whole in the Logs tab and
 * in its search results: its row is as tall as its lines, and the next row starts below it.
 */
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useDashboard } from '../helpers/browser.js';
import { withPage } from '../helpers/with-page.js';
import { createRunHttp, ingestLogsHttp } from '../helpers/browser-seed.js';

const PROJECT = 'log-tracebacks';
const T0 = Date.UTC(2026, 0, 12, 8, 0, 0);
const TRACEBACK = [
  'Traceback (most recent call last):',
  '  File "train.py", line 88, in <module>',
  '    loss.backward()',
  'RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB',
].join('\n');

/** The boxes of a list's rows, top to bottom, with whether each row's message fits inside its row. */
function rowBoxes(list: Locator): Promise<{ top: number; bottom: number; fits: boolean }[]> {
  return list.evaluate((el) =>
    [...el.querySelectorAll('[role=listitem]')]
      .map((row) => {
        const box = row.getBoundingClientRect();
        const msg = row.querySelector('.log-msg')!.getBoundingClientRect();
        return { top: box.top, bottom: box.bottom, fits: msg.top >= box.top - 0.5 && msg.bottom <= box.bottom + 0.5 };
      })
      .sort((a, b) => a.top - b.top),
  );
}

describe('tracebacks in the Logs tab', () => {
  const dash = useDashboard();

  it('shows every line of a multi-line message, in the log and in the search results', async () => {
    const run = await createRunHttp(dash.base, dash.key, { runName: 'crashed', projectName: PROJECT });
    const lines = [
      { lineNumber: 1, logType: 'INFO', message: 'epoch 0 loss=2.0' },
      { lineNumber: 2, logType: 'ERROR', message: TRACEBACK },
      { lineNumber: 3, logType: 'INFO', message: 'cleaning up' },
    ].map((l) => ({ ...l, time: T0 + l.lineNumber }));
    await ingestLogsHttp(dash.base, dash.key, run.runId, PROJECT, lines);

    await withPage(dash, { signIn: `${run.path}?tab=logs` }, async ({ page }) => {
      const output = page.getByRole('list', { name: 'Console output' });
      await output.getByText('cleaning up').waitFor();
      const rows = await rowBoxes(output);
      expect(rows).toHaveLength(3);
      for (const row of rows) expect(row.fits).toBe(true);
      for (let i = 1; i < rows.length; i++) expect(rows[i]!.top).toBeGreaterThanOrEqual(rows[i - 1]!.bottom - 0.5);

      await page.getByLabel('Search logs').fill('CUDA');
      const matches = page.getByRole('list', { name: 'Matching lines' });
      await matches.getByRole('listitem').first().waitFor();
      const found = await rowBoxes(matches);
      expect(found).toHaveLength(1);
      expect(found[0]!.fits).toBe(true);
    });
  });
});
