/**
 * Long run names in the runs table keep their end in view: sweep runs differ only in their
 * last characters (lr, seed), so a name too long for its cell is cut in the middle, not at the
 * end, at desktop and phone width.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { useDashboard } from '../helpers/browser.js';
import { PHONE, withPage } from '../helpers/with-page.js';
import { createRunHttp } from '../helpers/browser-seed.js';
import { http } from '../helpers/http-client.js';

const PROJECT = 'run-name-ends';
const NAMES = ['resnet18-imagenet-adamw-cosine-lr0.003-seed3', 'resnet18-imagenet-adamw-cosine-lr0.001-seed2'];

/** Whether the last character of the link's text is drawn inside its table cell. */
function lastCharShown(link: Locator): Promise<boolean> {
  return link.evaluate((a) => {
    const cell = a.closest('td')!.getBoundingClientRect();
    const walker = document.createTreeWalker(a, NodeFilter.SHOW_TEXT);
    let last: Text | null = null;
    for (let n = walker.nextNode(); n; n = walker.nextNode()) if (n.textContent) last = n as Text;
    const range = document.createRange();
    range.setStart(last!, last!.length - 1);
    range.setEnd(last!, last!.length);
    const char = range.getBoundingClientRect();
    if (char.width === 0 || char.right > cell.right + 0.5) return false;
    // text-overflow: ellipsis paints over the end of a clipped box: the character's box must
    // also lie inside every clipping ancestor up to the cell.
    for (let el: Element | null = last!.parentElement; el && el !== a.closest('td'); el = el.parentElement) {
      const box = el.getBoundingClientRect();
      if (getComputedStyle(el).overflow !== 'visible' && char.right > box.right + 0.5) return false;
    }
    return true;
  });
}

describe('run names in the runs table', () => {
  const dash = useDashboard();
  let org: string;

  beforeAll(async () => {
    for (const runName of NAMES) await createRunHttp(dash.base, dash.key, { runName, projectName: PROJECT });
    const validate = await http(dash.base, 'GET', '/api/runs/auth/validate', { key: dash.key });
    org = (validate.body.organization as { slug: string }).slug;
  }, 30_000);

  for (const [label, size] of [
    ['desktop', { width: 1440, height: 900 }],
    ['phone', PHONE],
  ] as const)
    it(`keeps a long name's end in view at ${label} width`, async () => {
      await withPage(dash, { ...size, signIn: `/o/${org}/projects/${PROJECT}` }, async ({ page }) => {
        for (const name of NAMES) {
          const link = page.getByRole('table').getByRole('link', { name, exact: true });
          await link.waitFor();
          expect(await lastCharShown(link), name).toBe(true);
        }
      });
    });
});
