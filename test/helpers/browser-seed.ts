/**
 * Seeding and checks shared by the browser tests (test/browser): runs created and lines
 * ingested over real HTTP against the spawned server, plus the page checks several files make.
 */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { http, ingestHttp } from './http-client.js';
import { type IngestKind, pyNdjson, type PyValue } from './ingest-api.js';
import type { RunRef } from '../../src/api/schemas/runs.js';

/** A run made by {@link createRunHttp}: the create answer plus the path of its page. */
export type SeededRun = RunRef & { path: string };

/** Returns the path and query of a URL the API hands out (a run's URL has no query). */
export const pathOf = (url: unknown): string => {
  const u = new URL(String(url));
  return u.pathname + u.search;
};

/** The organization slug in a seeded run's page path (`/o/<org>/projects/…`). */
export const orgOf = (run: SeededRun): string => run.path.split('/')[2]!;

/** Returns the created run (POST /api/runs/create over HTTP, which must answer 200) with its page's path. */
export async function createRunHttp(base: string, key: string, json: Record<string, unknown>): Promise<SeededRun> {
  const res = await http(base, 'POST', '/api/runs/create', { key, json });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const run = res.body as unknown as RunRef;
  return { ...run, runId: Number(run.runId), path: pathOf(run.url) };
}

/** Returns nothing; POSTs an NDJSON body to /ingest/<kind> over HTTP, which must answer 200. */
export async function ingestHttpOk(
  base: string,
  key: string,
  kind: IngestKind,
  runId: number,
  projectName: string,
  ndjson: string,
): Promise<void> {
  const res = await ingestHttp(base, key, kind, runId, projectName, ndjson);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** Returns nothing; ingests metric lines (Python's json.dumps per line) in one request that must answer 200. */
export function ingestMetricsHttp(
  base: string,
  key: string,
  runId: number,
  projectName: string,
  lines: readonly PyValue[],
): Promise<void> {
  return ingestHttpOk(base, key, 'metrics', runId, projectName, pyNdjson(lines));
}

/** Returns nothing; ingests console lines (JSON.stringify per line) in one request that must answer 200. */
export function ingestLogsHttp(
  base: string,
  key: string,
  runId: number,
  projectName: string,
  lines: readonly object[],
): Promise<void> {
  return ingestHttpOk(base, key, 'logs', runId, projectName, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
}

/** Returns the page's full width (the document's scrollWidth), to check against a phone's 390 px. */
export const pageWidth = (page: Page): Promise<number> => page.evaluate(() => document.documentElement.scrollWidth);

/** Returns once the page scrolls sideways by no more than a pixel (fails otherwise). */
export async function noSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
}

/** Returns once the chart of `logName` has finished loading (aria-busy="false"), waiting up to 15 s. */
export async function drawn(page: Page, logName: string): Promise<void> {
  await page.locator(`figure[aria-label="${logName}"][aria-busy="false"]`).waitFor({ timeout: 15_000 });
}

/**
 * Scrolls `target` into view, trying again (up to 5 times) while a re-render replaces the
 * element under it (a lazy section swapping its placeholder for its content); other errors throw.
 */
export async function scrollIntoView(target: Locator): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await target.scrollIntoViewIfNeeded({ timeout: 10_000 });
      return;
    } catch (err) {
      if (attempt >= 5 || !String(err).includes('not attached')) throw err;
    }
  }
}
