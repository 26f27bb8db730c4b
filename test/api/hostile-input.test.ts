/**
 * Hostile input on every route of the router: generated broken bodies, wrong types, huge,
 * negative and fractional numbers, 10 MB strings, deep nesting, wide arrays, huge steps,
 * unknown enum values, traversal, NUL, CR/LF, lone surrogates, whitespace-padded and long
 * names and invalid UTF-8 in bodies, parameters, headers and NDJSON lines.
 * Never a 5xx; refusals are 4xx with {error, code}; the server keeps answering.
 */
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '../../src/api/route-table.js';
import { makeTestApp } from '../helpers/test-app.js';
import { type BadCase, bodyCases, bodyFieldCases } from '../helpers/hostile-inputs.js';
import {
  HUGE_STEP_METRIC,
  ingestHeaderCases,
  ndjsonCases,
  paramCases,
  queryCases,
  signedPathCases,
} from '../helpers/hostile-wire-inputs.js';
import { requestFor, routeName, type Target } from '../helpers/route-requests.js';
import { createVictim } from '../helpers/victim.js';

const t = await makeTestApp();
const routes = routeTable(t.app);
let target: Target;
let tried = 0;
let answered5xx = 0;
beforeAll(async () => {
  target = await createVictim(t.app, t.key);
});
afterAll(async () => {
  console.log(`[reliability] hostile input: routes=${routes.length} badInputs=${tried} answered5xx=${answered5xx}`);
  await t.close();
});

/** Every generated case of a route, with the owner's key (the signed routes need none). */
function casesOf(route: (typeof routes)[number]): BadCase[] {
  const valid = requestFor(route, target);
  const cases: BadCase[] = [...queryCases(route, valid), ...paramCases(route, valid)];
  if (route.url.startsWith('/ingest/')) cases.push(...ndjsonCases(route, valid), ...ingestHeaderCases(valid));
  else if (route.public && route.url.startsWith('/files/')) cases.push(...signedPathCases(valid));
  else if (route.method === 'POST') cases.push(...bodyCases(valid), ...bodyFieldCases(route, valid));
  if (route.url === '/files') cases.push(...ingestHeaderCases(valid));
  return cases;
}

function withKey(req: InjectOptions, key: string | null): InjectOptions {
  const headers = { ...(req.headers as Record<string, string>) };
  if (key !== null) headers.authorization = `Bearer ${key}`;
  return { ...req, headers };
}

/**
 * Follows an accepted POST /files through: each link takes its file's declared bytes
 * without a 5xx (a name the server accepted must not fail at upload). Returns failures.
 */
async function uploadAll(req: InjectOptions, answer: string): Promise<string[]> {
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

describe('hostile input, on every route', () => {
  it.each(routes.map((r) => ({ route: r, name: routeName(r) })))(
    '$name never answers 5xx, refuses bad input with {error, code}, and keeps serving',
    async ({ route }) => {
      const key = route.public ? null : t.key;
      const failures: string[] = [];
      for (const c of casesOf(route)) {
        tried++;
        const res = await t.app.inject(withKey(c.req, key));
        const label = `${c.name}: ${res.statusCode} ${res.body.slice(0, 160)}`;
        if (route.url === '/files' && res.statusCode === 200) failures.push(...(await uploadAll(c.req, res.body)));
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
          if (typeof body.error !== 'string' || typeof body.code !== 'string' || !/^[A-Z][A-Z0-9_]*$/.test(body.code)) {
            failures.push(`no {error, code} for ${label}`);
          }
        }
      }
      expect(failures).toEqual([]);
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      if (!route.public) {
        const again = await t.app.inject(withKey(requestFor(route, target), key));
        expect(again.statusCode, again.body).toBe(200);
      }
    },
    120_000,
  );
});

describe('after every hostile input', () => {
  it('reads back whatever was accepted, huge steps included, in bounded time', async () => {
    const reads = [
      `/api/runs/metrics?runId=${target.runId}&logName=${encodeURIComponent(HUGE_STEP_METRIC)}`,
      `/api/runs/metrics?runId=${target.runId}&logName=${encodeURIComponent(HUGE_STEP_METRIC)}&stepMin=0`,
      `/api/runs/statistics?runId=${target.runId}`,
      `/api/runs/data?runId=${target.runId}`,
      `/api/runs/files?runId=${target.runId}`,
    ];
    for (const url of reads) {
      const started = performance.now();
      const res = await t.app.inject(withKey({ method: 'GET', url }, t.key));
      expect(res.statusCode, `${url}: ${res.body.slice(0, 160)}`).toBeLessThan(500);
      expect(performance.now() - started, url).toBeLessThan(2_000);
    }
  });
});

describe('atomicity of refused ingest', () => {
  it('stores nothing of a body whose last line is bad', async () => {
    const stats = async () =>
      (await t.app.inject(withKey({ method: 'GET', url: `/api/runs/statistics?runId=${target.runId}` }, t.key))).body;
    const before = await stats();
    const lines = Array.from({ length: 50 }, (_, i) =>
      JSON.stringify({ time: 1, step: 100 + i, data: { [target.metricName]: i } }),
    );
    const res = await t.app.inject(
      withKey(
        {
          method: 'POST',
          url: '/ingest/metrics',
          payload: `${lines.join('\n')}\n{"time":1,"step":-1,"data":{}}`,
          headers: { 'content-type': 'application/x-ndjson', 'x-run-id': String(target.runId) },
        },
        t.key,
      ),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: expect.any(String), error: expect.stringContaining('line 51') });
    expect(await stats()).toEqual(before);
  });
});

describe('U+0000, which not every engine can store, is handled the same on all of them', () => {
  const post = (url: string, payload: string, type = 'application/json') =>
    t.app.inject(
      withKey(
        {
          method: 'POST',
          url,
          payload,
          headers: { 'content-type': type, 'x-run-id': String(target.runId), 'x-project-name': target.projectName },
        },
        t.key,
      ),
    );

  it('refuses a JSON body or a URL carrying it with a 400, but takes the literal text \\u0000', async () => {
    const nul = await post('/api/runs/notes/update', `{"runId":${target.runId},"notes":"a\\u0000b"}`);
    expect(nul.statusCode).toBe(400);
    expect(nul.json()).toEqual({
      error: 'text in the body must not contain the NUL character (U+0000)',
      code: 'BAD_REQUEST',
    });
    const literal = await post('/api/runs/notes/update', `{"runId":${target.runId},"notes":"a\\\\u0000b"}`);
    expect(literal.statusCode).toBe(200);
    const url = await t.app.inject(
      withKey({ method: 'GET', url: `/api/runs/logs?runId=${target.runId}&logType=%00` }, t.key),
    );
    expect(url.statusCode).toBe(400);
  });

  it('refuses it in metric and data names, and keeps it as U+FFFD in log messages and text data', async () => {
    const metric = await post('/ingest/metrics', '{"time":1,"step":0,"data":{"a\\u0000b":1}}', 'application/x-ndjson');
    expect(metric.statusCode).toBe(400);
    const log = await post(
      '/ingest/logs',
      '{"time":1,"message":"x\\u0000y","lineNumber":77,"logType":"INFO"}',
      'application/x-ndjson',
    );
    expect(log.statusCode).toBe(200);
    const logs = await t.app.inject(
      withKey({ method: 'GET', url: `/api/runs/logs?runId=${target.runId}&limit=10000` }, t.key),
    );
    expect(
      logs.json<{ logs: { lineNumber: number; message: string }[] }>().logs.find((l) => l.lineNumber === 77)?.message,
    ).toBe('x\ufffdy');
  });
});
