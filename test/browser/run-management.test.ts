/**
 * Run management in the dashboard (issue 30): selecting runs and deleting them through a
 * confirmation that names them, finding them in the project's Trash and restoring them, and
 * stopping a RUNNING run from its page (the next heartbeat then answers CANCELLED).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot, useDashboard } from '../helpers/browser.js';
import { createRunHttp, type SeededRun } from '../helpers/browser-seed.js';
import { http } from '../helpers/http-client.js';
import { withPage } from '../helpers/with-page.js';

const PROJECT = 'manage';

describe('run management', () => {
  const dash = useDashboard();
  let org: string;
  const runs: SeededRun[] = [];

  beforeAll(async () => {
    for (const name of ['keep-me', 'junk-a', 'junk-b']) {
      runs.push(await createRunHttp(dash.base, dash.key, { runName: name, projectName: PROJECT }));
    }
    const validate = await http(dash.base, 'GET', '/api/runs/auth/validate', { key: dash.key });
    org = (validate.body.organization as { slug: string }).slug;
  }, 60_000);

  it('deletes selected runs after a confirmation naming them, and restores them from the Trash', async () => {
    await withPage(dash, { signIn: `/o/${org}/projects/${PROJECT}` }, async ({ page }) => {
      await page.getByText('3 runs').waitFor();
      await page.getByRole('checkbox', { name: 'Select run junk-a' }).check();
      await page.getByRole('checkbox', { name: 'Select run junk-b' }).check();
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete 2 runs?' });
      await dialog.waitFor();
      expect(await dialog.getByRole('listitem').allTextContents()).toEqual(['junk-a', 'junk-b']);
      await screenshot(page, 'run-management-delete-confirm');
      await dialog.getByRole('button', { name: 'Delete 2 runs' }).click();
      await page.getByText('1 run', { exact: true }).waitFor();

      await page.getByRole('link', { name: 'Trash' }).click();
      const trash = page.getByRole('table', { name: 'Deleted runs' });
      await trash.waitFor();
      expect(await trash.getByRole('rowheader').allTextContents()).toEqual(
        expect.arrayContaining(['junk-a', 'junk-b']),
      );
      await screenshot(page, 'run-management-trash');
      for (let i = 0; i < 2; i++) await trash.getByRole('button', { name: 'Restore' }).first().click();
      await page.getByText('The trash is empty.').waitFor();
      await page.getByRole('link', { name: PROJECT }).click();
      await page.getByText('3 runs').waitFor();
    });
  });

  it('stops a RUNNING run from its page', async () => {
    const run = runs[0]!;
    await withPage(dash, { signIn: run.path }, async ({ page }) => {
      await page.getByRole('button', { name: 'Stop run' }).click();
      await page.getByText('CANCELLED').first().waitFor();
      expect(await page.getByRole('button', { name: 'Stop run' }).count()).toBe(0);
      await screenshot(page, 'run-management-stopped');
    });
    const beat = await http(dash.base, 'POST', '/api/runs/trigger', { key: dash.key, json: { runId: run.runId } });
    expect(beat.body).toEqual({ status: 'CANCELLED' });
    const history = await http(dash.base, 'GET', `/api/runs/status/history?runId=${run.runId}`, { key: dash.key });
    expect((history.body.events as { source: string }[]).at(-1)?.source).toBe('user');
  });
});
