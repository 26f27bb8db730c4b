/**
 * The Logs tab of a run in Chromium against a spawned server: type filter, text search,
 * a 20,000-line console paged without loading it all, follow mode picking up a new line
 * within 5 s, the empty state, phone width and the dark theme.
 */
import type { Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot, signIn, useDashboard } from '../helpers/browser.js';
import { PHONE, withPage } from '../helpers/with-page.js';
import { createRunHttp, ingestLogsHttp, noSidewaysScroll } from '../helpers/browser-seed.js';
import { http } from '../helpers/http-client.js';

const PROJECT = 'logs-demo';
const T0 = Date.UTC(2026, 0, 12, 8, 0, 0);
const TYPES = ['PRINT', 'INFO', 'WARNING', 'ERROR', 'DEBUG'] as const;

interface Line {
  lineNumber: number;
  logType: string;
  message: string;
  time?: number;
}

const createRun = (base: string, key: string, runName: string) =>
  createRunHttp(base, key, { runName, projectName: PROJECT });

async function ingestLogs(base: string, key: string, runId: number, lines: readonly Line[]): Promise<void> {
  for (let i = 0; i < lines.length; i += 5000) {
    const chunk = lines.slice(i, i + 5000).map((l) => ({ time: l.time ?? T0 + l.lineNumber, ...l }));
    await ingestLogsHttp(base, key, runId, PROJECT, chunk);
  }
}

/** The query of every `GET /api/runs/logs` the page sends. */
function watchLogRequests(page: import('playwright-core').Page): URLSearchParams[] {
  const seen: URLSearchParams[] = [];
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/runs/logs') seen.push(url.searchParams);
  });
  return seen;
}

describe('the Logs tab', () => {
  const dash = useDashboard();

  it('filters by type and searches the text of the lines', async () => {
    const run = await createRun(dash.base, dash.key, 'mixed-console');
    const lines: Line[] = Array.from({ length: 40 }, (_, i) => ({
      lineNumber: i + 1,
      logType: TYPES[i % TYPES.length]!,
      message: `${TYPES[i % TYPES.length]!.toLowerCase()} message ${i + 1}: epoch ${Math.floor(i / 4)}`,
    }));
    await ingestLogs(dash.base, dash.key, run.runId, lines);
    await withPage(dash, { signIn: `${run.path}?tab=logs` }, async ({ page }) => {
      const output = page.getByRole('list', { name: 'Console output' });
      await output.getByText('print message 1: epoch 0').waitFor();
      await page.getByText('40 lines').waitFor();
      await screenshot(page, 'logs');

      await page.getByLabel('Log type').selectOption('ERROR');
      await page.getByText('8 lines').waitFor();
      const rows = output.getByRole('listitem');
      await expect.poll(() => rows.count()).toBe(8);
      for (const text of await rows.allTextContents()) expect(text).toContain('error message');
      expect(new URL(page.url()).searchParams.get('logType')).toBe('ERROR');
      // Error lines are coloured.
      const color = await rows
        .first()
        .locator('.log-msg')
        .evaluate((el) => getComputedStyle(el).color);
      const plain = await page.locator('body').evaluate((el) => getComputedStyle(el).color);
      expect(color).not.toBe(plain);
      await screenshot(page, 'logs-errors');

      await page.getByLabel('Log type').selectOption('');
      await page.getByLabel('Search logs').fill('epoch 7');
      const matches = page.getByRole('list', { name: 'Matching lines' }).getByRole('listitem');
      await expect.poll(() => matches.count()).toBe(4);
      for (const text of await matches.allTextContents()) expect(text).toContain('epoch 7');
      await page.getByRole('status').filter({ hasText: '4 lines match in 40 of 40 lines searched' }).waitFor();
      // Search and type filter together.
      await page.getByLabel('Log type').selectOption('DEBUG');
      await expect.poll(() => matches.count()).toBe(1);
      expect(await matches.first().textContent()).toContain('debug message 30: epoch 7');
      await page.getByLabel('Search logs').fill('no such text');
      await page.getByText('No lines contain “no such text”').waitFor();
    });
  });

  it('pages through 20,000 lines without loading them all', async () => {
    const run = await createRun(dash.base, dash.key, 'long-console');
    const lines: Line[] = Array.from({ length: 20_000 }, (_, i) => ({
      lineNumber: i + 1,
      logType: i % 97 === 0 ? 'ERROR' : 'PRINT',
      message: `line ${i + 1} of the long console`,
    }));
    await ingestLogs(dash.base, dash.key, run.runId, lines);
    await withPage(dash, async ({ page }) => {
      const requests = watchLogRequests(page);
      await signIn(page, dash.base, dash.key, `${run.path}?tab=logs`);
      const output = page.getByRole('list', { name: 'Console output' });
      await output.getByText('line 1 of the long console', { exact: true }).waitFor();
      await page.getByText('20,000 lines').waitFor();
      const rendered = await output.getByRole('listitem').count();
      expect(rendered).toBeGreaterThan(10);
      expect(rendered).toBeLessThan(200);

      // To the end: the last page is fetched, not the ones in between.
      await output.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
      await output.getByText('line 20000 of the long console', { exact: true }).waitFor();
      // And to the middle.
      await output.evaluate((el) => el.scrollTo({ top: el.scrollHeight / 2 }));
      await output.getByText('line 10000 of the long console', { exact: true }).waitFor();
      expect(await output.getByRole('listitem').count()).toBeLessThan(200);
      const fetched = requests.reduce((n, q) => n + Number(q.get('limit')), 0);
      expect(requests.length).toBeLessThanOrEqual(6);
      expect(fetched).toBeLessThanOrEqual(3_000);
      await screenshot(page, 'logs-long');
    });
  });

  it('follows a RUNNING run: a new line shows within 5 s, at the bottom', async () => {
    const run = await createRun(dash.base, dash.key, 'live-console');
    await ingestLogs(
      dash.base,
      dash.key,
      run.runId,
      Array.from({ length: 300 }, (_, i) => ({ lineNumber: i + 1, logType: 'PRINT', message: `warmup ${i + 1}` })),
    );
    await withPage(dash, { signIn: `${run.path}?tab=logs` }, async ({ page }) => {
      const output = page.getByRole('list', { name: 'Console output' });
      await output.getByText('warmup 1', { exact: true }).waitFor();
      const follow = page.getByRole('button', { name: 'Follow' });
      expect(await follow.getAttribute('aria-pressed')).toBe('false');
      await follow.click();
      expect(await follow.getAttribute('aria-pressed')).toBe('true');
      await output.getByText('warmup 300', { exact: true }).waitFor();

      await ingestLogs(dash.base, dash.key, run.runId, [
        { lineNumber: 301, logType: 'ERROR', message: 'fresh line after follow', time: Date.now() },
      ]);
      const started = Date.now();
      await output.getByText('fresh line after follow').waitFor({ timeout: 5_000 });
      expect(Date.now() - started).toBeLessThan(5_000);
      // The view is at the bottom.
      const gap = await output.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
      expect(gap).toBeLessThanOrEqual(2);
      await screenshot(page, 'logs-follow');

      // Scrolling up stops following; a finished run has no Follow button.
      await output.hover();
      await page.mouse.wheel(0, -400);
      await expect.poll(() => follow.getAttribute('aria-pressed')).toBe('false');
      const done = await http(dash.base, 'POST', '/api/runs/status/update', {
        key: dash.key,
        json: { runId: run.runId, status: 'COMPLETED' },
      });
      expect(done.status).toBe(200);
      await expect.poll(() => follow.count(), { timeout: 5_000 }).toBe(0);
    });
  });

  it('says so when a run has no console output, and fits a phone in the dark theme', async () => {
    const empty = await createRun(dash.base, dash.key, 'quiet-run');
    await withPage(dash, { ...PHONE, colorScheme: 'dark', signIn: `${empty.path}?tab=logs` }, async ({ page }) => {
      await page.getByText('No console output yet').waitFor();
      const busy = await createRun(dash.base, dash.key, 'phone-console');
      await ingestLogs(
        dash.base,
        dash.key,
        busy.runId,
        Array.from({ length: 50 }, (_, i) => ({
          lineNumber: i + 1,
          logType: TYPES[i % TYPES.length]!,
          message: `a rather long console line number ${i + 1} that does not fit on a phone screen at all`,
        })),
      );
      await page.goto(`${dash.base}${busy.path}?tab=logs`);
      await page.getByRole('list', { name: 'Console output' }).getByRole('listitem').first().waitFor();
      await noSidewaysScroll(page);
      await screenshot(page, 'logs-phone-dark');
    });
  });
});
