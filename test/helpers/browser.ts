/**
 * Real-browser tests of the dashboard: Debian's Chromium driven by playwright-core against a
 * spawned `stepwise serve`. The browser project shares one server and one Chromium (started by
 * test/setup/browser-global.ts); each test file signs in to its own fresh organization.
 * Pages are found as a person finds them (labels, roles, names); a test's page comes from
 * withPage (test/helpers/with-page.ts).
 * With STEPWISE_SCREENSHOTS=1, screenshots go to test-screenshots/ (git-ignored) for review.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserServer, type Download, type Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { createOrgKey, REPO_ROOT } from './spawned-server.js';

// Declared beside its reader (the setup in test/setup/browser-global.ts provides it), so every
// program that compiles this file, the benchmark included, knows the key.
declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared server's URL and data dir, and the shared Chromium's websocket endpoint. */
    dashboard: { baseUrl: string; dataDir: string; wsEndpoint: string };
  }
}

export const SCREENSHOTS = path.join(REPO_ROOT, 'test-screenshots');

const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const DESKTOP = '/usr/bin/chromium';
/** Debian's package of the same Chromium without the desktop browser around it (what Playwright runs headless). */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

const launchOptions = (executable: string) => ({
  executablePath: process.env.STEPWISE_CHROMIUM ?? executable,
  args: CHROMIUM_FLAGS,
});

/** Debian's Chromium (`/usr/bin/chromium`, or STEPWISE_CHROMIUM), headless. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch(launchOptions(DESKTOP));
}

/**
 * The tests' Chromium as a server that test files connect to over its websocket endpoint:
 * STEPWISE_CHROMIUM, else chromium-headless-shell when installed (a page there costs about a
 * third of the CPU that the desktop build's headless mode spends), else `/usr/bin/chromium`.
 */
export function launchChromiumServer(): Promise<BrowserServer> {
  return chromium.launchServer(launchOptions(fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : DESKTOP));
}

/** Returns a connection to the project's shared Chromium; its `close()` disconnects and closes its contexts. */
export function connectChromium(): Promise<Browser> {
  return chromium.connect(inject('dashboard').wsEndpoint);
}

/**
 * Signs the page's context in with `key` as the sign-in form does (`POST /api/session` from
 * the server's origin, which sets the session cookie), then opens `target` (a path on the
 * server). For tests whose subject is not sign-in: it skips loading and filling the sign-in
 * page, about a third of a fresh page's load. sign-in.test.ts and signInByForm cover the form.
 */
export async function signIn(page: Page, baseUrl: string, key: string, target = '/'): Promise<void> {
  // `connection: close`: a context is reused by the file's next test, and a kept-alive socket
  // left idle near the server's keep-alive timeout can be closed just as this request is sent
  // (ECONNRESET, seen once under load). A fresh socket per sign-in cannot race that way.
  const res = await page.context().request.post(`${baseUrl}/api/session`, {
    data: { apiKey: key },
    headers: { origin: baseUrl, connection: 'close' },
  });
  if (!res.ok()) throw new Error(`POST /api/session answered ${res.status()}: ${await res.text()}`);
  await page.goto(baseUrl + target);
}

/**
 * Opens `target` (a path on the server) signed out, expects the sign-in page, enters the key
 * into the field labelled "API key" and presses "Sign in"; resolves once the page has left
 * the sign-in page.
 */
export async function signInByForm(page: Page, baseUrl: string, key: string, target = '/'): Promise<void> {
  await page.goto(baseUrl + target);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
}

/** Returns a finished download's bytes, read over the connection (a connected browser has no local path). */
export async function downloadedBytes(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Writes `test-screenshots/<name>.png` (full page) when STEPWISE_SCREENSHOTS=1. Off by
 * default: the 58 full-page captures cost about 24 s of the browser project's time and
 * assert nothing; `STEPWISE_SCREENSHOTS=1 npx vitest run --project browser` writes them.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.STEPWISE_SCREENSHOTS !== '1') return;
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** The shared server as one test file sees it: its URL, its data dir and the file's own key. */
export interface DashboardServer {
  baseUrl: string;
  dataDir: string;
  /** A key of an organization made for this file alone. */
  key: string;
}

/** The shared server and browser for one test file; `close()` disconnects from the browser. */
export interface Dashboard {
  server: DashboardServer;
  browser: Browser;
  close(): Promise<void>;
}

/**
 * Returns the project's shared server with a key of a fresh organization (so the file sees
 * only its own projects and runs), held by its owner as on a first start, and a connection
 * to the shared Chromium.
 */
export async function startDashboard(): Promise<Dashboard> {
  const { baseUrl, dataDir } = inject('dashboard');
  const org = `browser-${randomBytes(4).toString('hex')}`;
  const [key, browser] = await Promise.all([createOrgKey(dataDir, org, ['--admin']), connectChromium()]);
  return { server: { baseUrl, dataDir, key }, browser, close: () => browser.close() };
}

/** The dashboard of a test file, with its server's URL and its organization's key at hand. */
export interface UsedDashboard extends Dashboard {
  /** The shared server's URL (server.baseUrl). */
  base: string;
  /** A key of the file's own organization (server.key). */
  key: string;
}

/**
 * The dashboard for the calling file or `describe`: started (startDashboard) before its
 * tests, disconnected after them. Call it before the file's own beforeAll, which then sees
 * it set; its fields are filled in when the tests start, not when this returns.
 */
export function useDashboard(): UsedDashboard {
  const dash = {} as UsedDashboard;
  beforeAll(async () => {
    const started = await startDashboard();
    Object.assign(dash, started, { base: started.server.baseUrl, key: started.server.key });
  });
  afterAll(async () => {
    await dash.close?.();
  });
  return dash;
}

/**
 * True when the first canvas at `selector` (or inside it) holds more than two colours: a
 * chart was drawn, not just cleared. Reads the canvas pixels in the page.
 */
export async function hasInk(page: Page, selector: string): Promise<boolean> {
  return page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const canvas = el instanceof HTMLCanvasElement ? el : el.querySelector('canvas');
      if (!canvas) return false;
      const ctx = canvas.getContext('2d');
      if (!ctx) return false;
      const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      const seen = new Set<number>();
      for (let i = 0; i < data.length; i += 4 * 7) {
        if (data[i + 3] === 0) continue;
        seen.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
        if (seen.size > 2) return true;
      }
      return false;
    });
}
