/**
 * Pages only owners and admins can change, in Chromium, by the signed-in principal's role: a
 * member sees no Webhooks entry in the top bar and no project Settings link; reached by URL,
 * the Webhooks page and the project settings say that only owners and admins can change them
 * (and show no control the API would refuse), and the alert rules are listed with that notice
 * instead of Delete and the form. The owner still sees the entries and adds a rule.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot, useDashboard } from '../helpers/browser.js';
import { createRunHttp } from '../helpers/browser-seed.js';
import { http } from '../helpers/http-client.js';
import { createOrgKey } from '../helpers/spawned-server.js';
import { withPage } from '../helpers/with-page.js';

describe('admin-only pages follow the role', () => {
  const dash = useDashboard();
  /** The file's organization (its key is the owner's). */
  let org = '';
  let memberKey = '';

  beforeAll(async () => {
    await createRunHttp(dash.base, dash.key, { runName: 'role-run', projectName: 'roles-demo' });
    const rule = await http(dash.base, 'POST', '/api/alert-rules', {
      key: dash.key,
      json: { projectName: 'roles-demo', logName: 'val/loss', kind: 'above', threshold: 5 },
    });
    expect(rule.status).toBe(200);
    const who = await fetch(`${dash.base}/api/runs/auth/validate`, {
      headers: { authorization: `Bearer ${dash.key}` },
    });
    org = ((await who.json()) as { organization: { slug: string } }).organization.slug;
    memberKey = await createOrgKey(dash.server.dataDir, org, ['--user', 'morgan', '--role', 'member']);
  });

  it('a member gets no admin entries, and each admin page explains instead of offering controls', async () => {
    const member = { ...dash, key: memberKey };
    await withPage(member, { signIn: `/o/${org}/projects/roles-demo` }, async ({ page }) => {
      await page.getByRole('heading', { name: 'roles-demo', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Alert rules' }).click();
      const editor = page.getByRole('region', { name: 'Alert rules' });
      await editor.getByText('val/loss > 5').waitFor();
      // The role sentence appears once GET /api/account has answered, so the checks below see the role.
      await editor.getByText(`Only owners and admins can change alert rules. You are a member of ${org}`).waitFor();
      expect(await editor.getByRole('button', { name: /Delete/ }).count()).toBe(0);
      expect(await editor.getByRole('button', { name: 'Add rule' }).count()).toBe(0);
      expect(
        await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Settings' }).count(),
      ).toBe(0);
      const main = page.getByRole('navigation', { name: 'Main' });
      expect(await main.getByRole('link', { name: 'Webhooks' }).count()).toBe(0);
      await screenshot(page, 'admin-pages-member-rules');

      await page.goto(`${dash.base}/webhooks`);
      await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
      await page.getByText('Only owners and admins can see and change webhooks.').waitFor();
      expect(await page.getByRole('button', { name: 'Create webhook' }).count()).toBe(0);
      await screenshot(page, 'admin-pages-member-webhooks');

      await page.goto(`${dash.base}/o/${org}/projects/roles-demo/settings`);
      await page.getByText('Only owners and admins can rename, delete or change the retention of a project.').waitFor();
      await page.getByText('Retention: runs are kept until someone deletes them.').waitFor();
      expect(await page.getByRole('button', { name: 'Rename' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Save retention' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Delete project' }).count()).toBe(0);
      await screenshot(page, 'admin-pages-member-settings');
    });
  });

  it('the owner still sees the entries and uses the pages', async () => {
    await withPage(dash, { signIn: `/o/${org}/projects/roles-demo` }, async ({ page }) => {
      await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Settings' }).waitFor();
      await page.getByRole('button', { name: 'Alert rules' }).click();
      const editor = page.getByRole('region', { name: 'Alert rules' });
      await editor.getByRole('button', { name: 'Delete rule val/loss > 5' }).waitFor();
      await editor.getByLabel('Metric').fill('train/loss');
      await editor.getByLabel('Threshold').fill('3');
      await editor.getByRole('button', { name: 'Add rule' }).click();
      await editor.getByText('train/loss > 3').waitFor();
      expect(await page.getByText('Only owners and admins can').count()).toBe(0);

      await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('button', { name: 'Rename' }).waitFor();
      await page.getByRole('button', { name: 'Delete project' }).waitFor();

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
      await page.getByRole('button', { name: 'Create webhook' }).waitFor();
      expect(await page.getByText('Only owners and admins can').count()).toBe(0);
    });
  });
});
