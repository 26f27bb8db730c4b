/**
 * People in the dashboard (issue 29), in Chromium: the owner invites a member on the Members
 * page and copies the link; the invitee accepts it in a second browser context with a name and
 * password, sees the organization's projects, gets the only-admins state on /members (and no
 * Members link), and a run they create shows their name in the runs table and on its page.
 * Invited to a second organization, they switch between the two in the top bar; the account
 * page lists their session and changes their password.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot, useDashboard } from '../helpers/browser.js';
import { createRunHttp, noSidewaysScroll } from '../helpers/browser-seed.js';
import { createOrgKey } from '../helpers/spawned-server.js';
import { PHONE, withPage } from '../helpers/with-page.js';

describe('members in the dashboard', () => {
  const dash = useDashboard();
  /** The file's organization (its key is the owner's). */
  let org = '';

  beforeAll(async () => {
    await createRunHttp(dash.base, dash.key, { runName: 'owner-run', projectName: 'team-demo' });
    const who = await fetch(`${dash.base}/api/runs/auth/validate`, {
      headers: { authorization: `Bearer ${dash.key}` },
    });
    org = ((await who.json()) as { organization: { slug: string } }).organization.slug;
  });

  it('invite → accept in a second context → the member sees projects, not Members, and their run', async () => {
    await withPage(dash, { signIn: '/members' }, async ({ page }) => {
      await page.getByRole('heading', { name: 'Invite someone' }).waitFor();
      await page.getByLabel('Email').fill('casey@team.test');
      await page.getByLabel('Role', { exact: true }).selectOption('member');
      await page.getByRole('button', { name: 'Invite' }).click();
      const link = (await page.locator('.people-link pre').textContent())!.trim();
      expect(link).toMatch(/\/join#token=[A-Za-z0-9_-]+$/);
      await screenshot(page, 'members-invite');
      const token = link.split('#token=')[1]!;

      await withPage(dash, async ({ page: theirs }) => {
        await theirs.goto(`${dash.base}/join#token=${token}`);
        await theirs.getByLabel('Your name').fill('Casey Quinn');
        await theirs.getByLabel('Password').fill('a long enough password');
        await theirs.getByRole('button', { name: 'Join' }).click();
        await theirs.waitForURL((url) => url.pathname.endsWith('/projects'));
        await theirs.getByRole('link', { name: 'team-demo' }).waitFor();
        expect(
          await theirs.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).count(),
        ).toBe(0);

        await theirs.goto(`${dash.base}/members`);
        await theirs.getByText('Only admins can manage members').waitFor();
        expect(await theirs.getByRole('button', { name: 'Invite' }).count()).toBe(0);

        const created = await theirs.evaluate(async () => {
          const res = await fetch('/api/runs/create', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ runName: 'casey-run', projectName: 'team-demo' }),
          });
          return { status: res.status, body: (await res.json()) as { url: string } };
        });
        expect(created.status).toBe(200);
        await theirs.goto(`${dash.base}/members`);
        await theirs.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click();
        await theirs.getByRole('link', { name: 'team-demo' }).click();
        const row = theirs.getByRole('row').filter({ hasText: 'casey-run' });
        await row.getByText('Casey Quinn').waitFor();
        await screenshot(theirs, 'members-run-created-by');
        await row.getByRole('link', { name: 'casey-run' }).click();
        await theirs.getByText('Created by').waitFor();
        await theirs.getByText('Casey Quinn').first().waitFor();

        // Invited to a second organization, the member switches between the two in the top bar.
        const other = `${org}-b`;
        const otherKey = await createOrgKey(dash.server.dataDir, other, ['--admin', '--user', 'owner-b']);
        const invite = await fetch(`${dash.base}/api/members/invite`, {
          method: 'POST',
          headers: { authorization: `Bearer ${otherKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'casey@team.test', role: 'viewer' }),
        });
        const second = ((await invite.json()) as { url: string }).url.split('#token=')[1]!;
        await theirs.goto(`${dash.base}/join#token=${second}`);
        await theirs.getByLabel('Your name').fill('Casey Quinn');
        await theirs.getByLabel('Password').fill('a long enough password');
        await theirs.getByRole('button', { name: 'Join' }).click();
        await theirs.waitForURL((url) => url.pathname === `/o/${other}/projects`);
        const switcher = theirs.getByRole('combobox', { name: 'Organization' });
        expect(await switcher.inputValue()).toBe(other);
        await switcher.selectOption(org);
        await theirs.waitForURL((url) => url.pathname === `/o/${org}/projects`);
        await theirs.getByRole('link', { name: 'team-demo' }).waitFor();

        // The account page lists this session and changes the password.
        await theirs.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click();
        await theirs.getByText('(this session)').waitFor();
        await theirs.getByLabel('Current password').fill('a long enough password');
        await theirs.getByLabel('New password').fill('another long password');
        await theirs.getByRole('button', { name: 'Change password' }).click();
        await theirs.getByText('Password changed.').waitFor();
        await screenshot(theirs, 'members-account');
      });

      // Back as the owner: the new member is listed with its role.
      await page.reload();
      await page.getByRole('combobox', { name: 'Role of Casey Quinn' }).waitFor();
      expect(await page.getByRole('combobox', { name: 'Role of Casey Quinn' }).inputValue()).toBe('member');
    });
  });
  it('starts the members and account pages right under their heading, at desktop and phone width', async () => {
    for (const [size, viewport] of [
      ['desktop', { width: 1440, height: 900 }],
      ['phone', PHONE],
    ] as const) {
      await withPage(dash, { ...viewport, signIn: '/members' }, async ({ page }) => {
        for (const path of ['members', 'account']) {
          await page.goto(`${dash.base}/${path}`);
          await page.locator('.people-section').first().waitFor();
          // The page's flex gap (16 px) is all that separates the heading from the first line.
          const gap = await page.evaluate(() => {
            const h1 = document.querySelector('.people-page > h1')!;
            return h1.nextElementSibling!.getBoundingClientRect().top - h1.getBoundingClientRect().bottom;
          });
          expect(gap, `${path} at ${size}`).toBeLessThanOrEqual(17);
          await noSidewaysScroll(page);
          await screenshot(page, `people-${path}-${size}`);
        }
      });
    }
  });
});
