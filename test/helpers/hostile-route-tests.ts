/**
 * Hostile input on the routes of the router: generated broken bodies, wrong types, huge,
 * negative and fractional numbers, 10 MB strings, deep nesting, wide arrays, huge steps,
 * unknown enum values, traversal, NUL, CR/LF, lone surrogates, bidirectional controls,
 * whitespace-padded and long names, invalid UTF-8 in bodies, parameters, headers and NDJSON
 * lines, paths whose percent-encoding is not UTF-8, and run search filters past and at the
 * bounds of their work (hostile-filters.ts). Never a 5xx; refusals are 4xx with {error, code}
 * and the security headers, never echoing a bad path; answers are no-store (the dashboard's
 * assets aside); the server keeps answering.
 * The routes are split over two test files (hostile-input*.test.ts) so they run in parallel.
 */
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RouteEntry, routeTable } from '../../src/api/route-table.js';
import { makeTestApp, type TestApp } from './test-app.js';
import { filterCases } from './hostile-filters.js';
import { type BadCase, bodyCases, bodyFieldCases } from './hostile-inputs.js';
import {
  badPathCases,
  ingestHeaderCases,
  ndjsonCases,
  paramCases,
  queryCases,
  signedPathCases,
} from './hostile-wire-inputs.js';
import { requestFor, routeName, successStatus, type Target } from './route-requests.js';
import { createVictim, giveOwnerPassword } from './victim.js';

/** Every generated case of a route, with the owner's key (the signed routes need none). */
function casesOf(route: RouteEntry, target: Target): BadCase[] {
  const valid = requestFor(route, target);
  const cases: BadCase[] = [
    ...queryCases(route, valid),
    ...paramCases(route, valid),
    ...filterCases(route, valid),
    ...badPathCases(valid),
  ];
  if (route.url.startsWith('/ingest/')) cases.push(...ndjsonCases(route, valid), ...ingestHeaderCases(valid));
  else if (route.public && route.url.startsWith('/files/')) cases.push(...signedPathCases(valid));
  else if (['POST', 'PATCH', 'PUT'].includes(route.method)) {
    cases.push(...bodyCases(valid), ...bodyFieldCases(route, valid));
  }
  if (route.url === '/files') cases.push(...ingestHeaderCases(valid));
  return cases;
}

/** The request with the bearer key (none when null). */
export function withKey(req: InjectOptions, key: string | null): InjectOptions {
  const headers = { ...(req.headers as Record<string, string>) };
  if (key !== null) headers.authorization = `Bearer ${key}`;
  return { ...req, headers };
}

/**
 * Follows an accepted POST /files through: each link takes its file's declared bytes
 * without a 5xx (a name the server accepted must not fail at upload). Returns failures.
 */
async function uploadAll(t: TestApp, req: InjectOptions, answer: string): Promise<string[]> {
  const declared = new Map<string, number>();
  for (const f of (JSON.parse(String(req.payload)) as { files: { fileName: string; fileSize: number }[] }).files) {
    declared.set(f.fileName, f.fileSize);
  }
  const failures: string[] = [];
  for (const links of Object.values(JSON.parse(answer) as Record<string, Record<string, string>[]>)) {
    for (const [fileName, link] of links.flatMap((l) => Object.entries(l))) {
      const size = declared.get(fileName) ?? 0;
      if (size > 1024 * 1024) continue;
      const url = new URL(link);
      const put = await t.app.inject({
        method: 'PUT',
        url: url.pathname + url.search,
        payload: Buffer.alloc(size, 1),
        headers: { 'content-type': 'application/octet-stream' },
      });
      if (put.statusCode >= 500) failures.push(`5xx uploading ${fileName.slice(0, 40)}: ${put.body.slice(0, 160)}`);
    }
  }
  return failures;
}

/** What a hostile-input file tests against: its app and the victim run (set before the tests). */
/** Routes that check a password and lock the account after 10 wrong ones (auth/sign-in-limiter.ts). */
const SIGN_IN_LIMITED = new Set(['POST /api/account/password']);

export interface HostileFixture {
  t: TestApp;
  target: () => Target;
}

/**
 * Builds an app with a victim run and registers the hostile-input test of every route that
 * `select` picks. Call with top-level await: the routes are read from the built app.
 */
export async function hostileRouteTests(select: (route: RouteEntry) => boolean): Promise<HostileFixture> {
  const t = await makeTestApp();
  const routes = routeTable(t.app).filter(select);
  let target: Target | undefined;
  let tried = 0;
  let answered5xx = 0;
  beforeAll(async () => {
    target = await createVictim(t.app, t.key);
    await giveOwnerPassword(t.stores.metadata, t.key, target);
  });
  afterAll(async () => {
    console.log(`[reliability] hostile input: routes=${routes.length} badInputs=${tried} answered5xx=${answered5xx}`);
    await t.close();
  });

  describe('hostile input, on every route', () => {
    it.each(routes.map((r) => ({ route: r, name: routeName(r) })))(
      '$name never answers 5xx, refuses bad input with {error, code}, and keeps serving',
      async ({ route }) => {
        const key = route.public ? null : t.key;
        const failures: string[] = [];
        for (const c of casesOf(route, target!)) {
          tried++;
          const res = await t.app.inject(withKey(c.req, key));
          const label = `${c.name}: ${res.statusCode} ${res.body.slice(0, 160)}`;
          if (route.url === '/files' && res.statusCode === 200) failures.push(...(await uploadAll(t, c.req, res.body)));
          if (res.statusCode >= 500) {
            answered5xx++;
            failures.push(`5xx for ${label}`);
          } else if (c.mustReject && res.statusCode < 400) failures.push(`accepted ${label}`);
          if (res.statusCode >= 400) {
            const body = (() => {
              try {
                return res.json<{ error?: unknown; code?: unknown }>();
              } catch {
                return {};
              }
            })();
            if (
              typeof body.error !== 'string' ||
              typeof body.code !== 'string' ||
              !/^[A-Z][A-Z0-9_]*$/.test(body.code)
            ) {
              failures.push(`no {error, code} for ${label}`);
            }
            if (/%ff/i.test(res.body)) failures.push(`the bad path echoed in ${label}`);
            if (res.headers['x-content-type-options'] !== 'nosniff') failures.push(`no security headers for ${label}`);
          }
          if (!route.url.startsWith('/assets/') && res.headers['cache-control'] !== 'no-store') {
            failures.push(`no Cache-Control: no-store on ${label}`);
          }
        }
        expect(failures).toEqual([]);
        expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
        if (!route.public) {
          const again = await t.app.inject(withKey(requestFor(route, target!), key));
          // A route that counts wrong passwords is locked for a while after so many: by design.
          const locked = SIGN_IN_LIMITED.has(routeName(route)) && again.statusCode === 429;
          expect(locked ? 429 : again.statusCode, again.body).toBe(locked ? 429 : successStatus(route));
        }
      },
      120_000,
    );
  });
  return { t, target: () => target! };
}
