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

  it('renames a project (old links lead to the new name), keeps a retention and deletes it by its typed name', async () => {
    const run = await createRunHttp(dash.base, dash.key, { runName: 'in-old', projectName: 'old-proj' });
    // The settings page may ask once more for its project's settings as the rename leaves it (a 404).
    const options = { signIn: `/o/${org}/projects/old-proj/settings`, expectedStatuses: [404] };
    await withPage(dash, options, async ({ page }) => {
      await page.getByLabel('Retention (days)').fill('30');
      await page.getByRole('button', { name: 'Save retention' }).click();
      await page.getByRole('status').getByText('Saved').waitFor();
      await page.getByLabel('Project name', { exact: true }).fill('new-proj');
      await page.getByRole('button', { name: 'Rename' }).click();
      await page.getByRole('heading', { name: 'new-proj' }).waitFor();
      // The run's URL from before the rename opens the run under the new name.
      await page.goto(dash.base + run.path);
      await page.getByRole('heading', { name: 'in-old' }).waitFor();
      expect(new URL(page.url()).pathname).toContain('/projects/new-proj/');
      await page.goto(`${dash.base}/o/${org}/projects/new-proj/settings`);
      expect(await page.getByLabel('Retention (days)').inputValue()).toBe('30');
      const remove = page.getByRole('button', { name: 'Delete project' });
      expect(await remove.isDisabled()).toBe(true);
      await page.getByLabel('Type the project name to confirm').fill('new-proj');
      await screenshot(page, 'run-management-settings');
      await remove.click();
      await page.getByRole('heading', { name: 'Projects' }).waitFor();
    });
    const trash = await http(dash.base, 'GET', '/api/runs/trash?projectName=new-proj', { key: dash.key });
    expect((trash.body.runs as { id: number }[]).map((r) => r.id)).toEqual([run.runId]);
  });

  it('stops a RUNNING run from its page once asked to confirm', async () => {
    const run = runs[0]!;
    await withPage(dash, { signIn: run.path }, async ({ page }) => {
      // Cancel leaves the run running.
      await page.getByRole('button', { name: 'Stop run' }).click();
      const dialog = page.getByRole('dialog', { name: /^Stop “/ });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
      const before = await http(dash.base, 'POST', '/api/runs/trigger', { key: dash.key, json: { runId: run.runId } });
      expect(before.body).not.toEqual({ status: 'CANCELLED' });
      await page.getByRole('button', { name: 'Stop run' }).click();
      await screenshot(page, 'run-management-stop-confirm');
      await dialog.getByRole('button', { name: 'Stop run' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
      await page.locator('.status', { hasText: 'CANCELLED' }).first().waitFor();
      await expect.poll(() => page.getByRole('button', { name: 'Stop run' }).count()).toBe(0);
      await screenshot(page, 'run-management-stopped');
    });
    const beat = await http(dash.base, 'POST', '/api/runs/trigger', { key: dash.key, json: { runId: run.runId } });
    expect(beat.body).toEqual({ status: 'CANCELLED' });
    const history = await http(dash.base, 'GET', `/api/runs/status/history?runId=${run.runId}`, { key: dash.key });
    expect((history.body.events as { source: string }[]).at(-1)?.source).toBe('user');
  });
});
