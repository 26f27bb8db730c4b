/**
 * The browser tests' one page fixture: withPage opens a clean page of the shared Chromium
 * (viewport, theme, optionally signed in), runs the test's body, fails the test on errors in
 * the page and always hands the page back for the file's next test.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { signIn } from './browser.js';

/** A phone's viewport (an iPhone 12-14), for `{ ...PHONE }` in withPage's options. */
export const PHONE = { width: 390, height: 844 } as const;

/** What a test's body gets: its page, the page's context and what went wrong in the page so far. */
export interface PageWatch {
  page: Page;
  context: BrowserContext;
  /** Uncaught exceptions (`pageerror: …`) and console errors (`console: … at <url>`) so far. */
  errors: string[];
}

/** Where withPage opens its page: a browser and the server it signs in to with `key`. */
export interface PageHost {
  browser: Browser;
  base: string;
  key: string;
}

export interface PageOptions {
  /** 1280×800 unless told otherwise. */
  width?: number;
  height?: number;
  /** The light theme unless told otherwise. */
  colorScheme?: 'light' | 'dark';
  /** A path on the server to open signed in with the host's key before the body runs. */
  signIn?: string;
  /**
   * HTTP statuses the test provokes on purpose (a forced 500, a run that is not found): the
   * browser's console note on a resource answered with one of them is not an error. 401 is
   * always expected (the app's reads before it is signed in).
   */
  expectedStatuses?: readonly number[];
}

type PageBody = (watch: PageWatch) => Promise<void>;

/** Pages handed back after a test, ready for the same file's next test. */
const idlePages = new WeakMap<Browser, { page: Page; context: BrowserContext }[]>();

/**
 * Opens a page (see PageOptions), signs in when told, runs `body`, then fails the test when the
 * page had an uncaught exception or a console error other than the browser's note on a resource
 * answered 401 or with an expected status (so every failed API request counts, as the browser
 * logs each one). The page is handed back whether the body passed or threw; the body's own
 * failure is the one reported. Resolves once the page is handed back.
 */
export function withPage(host: PageHost, body: PageBody): Promise<void>;
export function withPage(host: PageHost, options: PageOptions, body: PageBody): Promise<void>;
export async function withPage(host: PageHost, ...args: [PageBody] | [PageOptions, PageBody]): Promise<void> {
  const [options, body] = args.length === 1 ? [{}, args[0]] : args;
  const { watch, handBack } = await openPage(host.browser, options);
  try {
    if (options.signIn !== undefined) await signIn(watch.page, host.base, host.key, options.signIn);
    await body(watch);
    expect(unexpectedErrors(watch.errors, options.expectedStatuses ?? []), 'errors in the page').toEqual([]);
  } finally {
    await handBack();
  }
}

/** Returns the errors left once the console notes on resources answered 401 or with `expected` are dropped. */
function unexpectedErrors(errors: readonly string[], expected: readonly number[]): string[] {
  const allowed = new Set([401, ...expected]);
  return errors.filter((e) => {
    const status = /^console: .*status of (\d{3})\b/.exec(e)?.[1];
    return !(status && allowed.has(Number(status)));
  });
}

/**
 * Returns a page with no cookies, storage, routes or listeners left by an earlier test, and the
 * function that hands it back cleaned (cookies, permissions, routes, listeners and the origin's
 * storage dropped, other pages closed, the page on about:blank) for the same file's next test:
 * a navigation in a page that exists costs about a fifth of a fresh context's first page (a new
 * renderer process and a cold start of the app).
 */
async function openPage(
  browser: Browser,
  options: PageOptions,
): Promise<{ watch: PageWatch; handBack: () => Promise<void> }> {
  const viewport = { width: options.width ?? 1280, height: options.height ?? 800 };
  const colorScheme = options.colorScheme ?? 'light';
  const idle = idlePages.get(browser) ?? [];
  idlePages.set(browser, idle);
  let reused = idle.pop();
  if (reused) {
    await reused.page.setViewportSize(viewport);
    await reused.page.emulateMedia({ colorScheme });
  } else {
    const context = await browser.newContext({ viewport, colorScheme });
    reused = { context, page: await context.newPage() };
  }
  const { page, context } = reused;
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()} at ${msg.location().url}`);
  });
  const handBack = async (): Promise<void> => {
    page.removeAllListeners();
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page
      .evaluate(() => {
        localStorage.clear();
        sessionStorage.clear();
      })
      .catch(() => undefined);
    // A navigation of the test's still in flight (a failed redirect committing its error
    // page) can interrupt a try: wait for it to settle and try again.
    for (let tries = 1; ; tries++) {
      try {
        await page.goto('about:blank');
        break;
      } catch (err) {
        if (tries === 3) throw err;
        await page.waitForTimeout(200);
      }
    }
    await context.clearCookies();
    await context.clearPermissions();
    for (const other of context.pages()) if (other !== page) await other.close();
    idle.push({ page, context });
  };
  return { watch: { page, context, errors }, handBack };
}
