import { beforeEach, describe, expect, it } from 'vitest';
import { call, type Reply, useTestApp } from '../helpers/test-app.js';
import {
  createRun,
  expectError,
  getDetails,
  getHistory,
  itScenarios,
  listProjects,
  type Scenario,
} from '../helpers/run-api.js';

const t = useTestApp();
let runId: number;
beforeEach(async () => {
  runId = (await createRun(t.app, t.key, { runName: 'r', projectName: 'p' })).runId;
});

/** A POST with a raw body and exactly the given content type (none when null). */
async function rawPost(url: string, payload: string | Buffer, contentType: string | null): Promise<Reply> {
  const res = await t.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${t.key}`, ...(contentType === null ? {} : { 'content-type': contentType }) },
    payload,
  });
  let body: Reply['body'];
  try {
    body = res.json();
  } catch {
    body = { raw: res.body };
  }
  return { status: res.statusCode, body, headers: res.headers };
}

/** The POST routes with a body that is valid for the fixture run. */
const POSTS: { url: string; body: () => Record<string, unknown> }[] = [
  { url: '/api/runs/create', body: () => ({ runName: 'r', projectName: 'p' }) },
  { url: '/api/runs/resume', body: () => ({ runId }) },
  { url: '/api/runs/status/update', body: () => ({ runId, status: 'RUNNING' }) },
  { url: '/api/runs/notes/update', body: () => ({ runId, notes: 'x' }) },
  { url: '/api/runs/config/update', body: () => ({ runId, config: '{}' }) },
  { url: '/api/runs/tags/update', body: () => ({ runId, tags: [] }) },
  { url: '/api/runs/logName/add', body: () => ({ runId, logName: ['x'], logType: 'METRIC' }) },
  { url: '/api/runs/modelGraph/create', body: () => ({ runId, graph: { format: 'f', nodes: {} } }) },
];

/** The run must be exactly as the fixture made it. */
async function expectFixtureUntouched(): Promise<void> {
  const run = await getDetails(t.app, t.key, runId);
  expect(run).toMatchObject({ status: 'RUNNING', tags: [], notes: null, config: null, logNames: [] });
  expect(await getHistory(t.app, t.key, runId)).toHaveLength(1);
  expect((await listProjects(t.app, t.key)).map((p) => [p.name, p.runCount])).toEqual([['p', 1]]);
}

describe('bodies that are not JSON objects', () => {
  const payloads: { name: string; payload: string; code?: string }[] = [
    { name: 'malformed JSON', payload: '{"runId":', code: 'INVALID_JSON' },
    { name: 'trailing garbage after JSON', payload: '{"runId":1} x', code: 'INVALID_JSON' },
    { name: 'single-quoted JSON', payload: "{'runId':1}", code: 'INVALID_JSON' },
    { name: 'an empty body', payload: '' },
    { name: 'a blank body', payload: '  \n ' },
    { name: 'JSON null', payload: 'null' },
    { name: 'a JSON array', payload: '[]' },
    { name: 'a JSON string', payload: '"runId"' },
    { name: 'a JSON number', payload: '5' },
  ];
  for (const { url } of POSTS) {
    for (const p of payloads) {
      it(`POST ${url} with ${p.name} is a 400`, async () => {
        const res = await rawPost(url, p.payload, 'application/json');
        expectError(res, 400, p.code);
        await expectFixtureUntouched();
      });
    }
  }
});

describe('content types', () => {
  const refused = [
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/x-ndjson',
    'multipart/form-data; boundary=x',
  ];
  for (const { url, body } of POSTS) {
    for (const type of refused) {
      it(`POST ${url} with a ${type} body is a 415`, async () => {
        const res = await rawPost(url, JSON.stringify(body()), type);
        expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
        await expectFixtureUntouched();
      });
    }

    it(`POST ${url} with a body and no content type is a 415`, async () => {
      const res = await rawPost(url, JSON.stringify(body()), null);
      expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    });

    it(`POST ${url} accepts application/json with a charset`, async () => {
      const res = await rawPost(url, JSON.stringify(body()), 'application/json; charset=utf-8');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    });
  }

  it('accepts the media type in upper case, as media types are case-insensitive', async () => {
    const res = await rawPost('/api/runs/tags/update', JSON.stringify({ runId, tags: ['a'] }), 'Application/JSON');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('a POST without a body and without a content type is a 400 for a route that needs a body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/runs/status/update',
      headers: { authorization: `Bearer ${t.key}` },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json<{ error: unknown; code: unknown }>();
    expect(typeof body.error).toBe('string');
    expect(typeof body.code).toBe('string');
  });

  it('a JSON body over the 10 MB limit is a 413', async () => {
    const notes = 'x'.repeat(10 * 1024 * 1024 + 10);
    const res = await rawPost('/api/runs/notes/update', JSON.stringify({ runId, notes }), 'application/json');
    expectError(res, 413, 'PAYLOAD_TOO_LARGE');
  });
});

describe('wrong types and out-of-range values', () => {
  /** `body` sent to `url` must be a 400 whose error names the problem. */
  const row = (name: string, url: string, body: () => Record<string, unknown>): Scenario => ({
    name: `${name} is a 400 naming the problem`,
    method: 'POST',
    url,
    body,
    status: 400,
  });
  /** A runs/create row: a valid run `r` of project `p` with these fields. */
  const create = (name: string, fields: () => Record<string, unknown>) =>
    row(name, '/api/runs/create', () => ({ runName: 'r', projectName: 'p', ...fields() }));
  const scenarios: Scenario[] = [
    row('a runId sent as the string "5"', '/api/runs/status/update', () => ({
      runId: String(runId),
      status: 'COMPLETED',
    })),
    row('a runId sent as a string to notes', '/api/runs/notes/update', () => ({ runId: String(runId), notes: 'x' })),
    row('a runId sent as a string to config', '/api/runs/config/update', () => ({
      runId: String(runId),
      config: '{}',
    })),
    row('a runId sent as a string to tags', '/api/runs/tags/update', () => ({ runId: String(runId), tags: ['a'] })),
    row('a runId sent as a string to logName/add', '/api/runs/logName/add', () => ({
      runId: String(runId),
      logName: ['a'],
      logType: 'METRIC',
    })),
    row('a runId sent as a string to modelGraph/create', '/api/runs/modelGraph/create', () => ({
      runId: String(runId),
      graph: { format: 'f', nodes: {} },
    })),
    row('a runId sent as a string to resume', '/api/runs/resume', () => ({ runId: String(runId) })),
    row('a fractional runId', '/api/runs/status/update', () => ({ runId: runId + 0.5, status: 'COMPLETED' })),
    row('a negative runId', '/api/runs/status/update', () => ({ runId: -1, status: 'COMPLETED' })),
    row('a runId beyond the safe integers', '/api/runs/status/update', () => ({
      runId: 2 ** 53 + 2,
      status: 'COMPLETED',
    })),
    row('a runId of true', '/api/runs/status/update', () => ({ runId: true, status: 'COMPLETED' })),
    row('a null runId', '/api/runs/status/update', () => ({ runId: null, status: 'COMPLETED' })),
    row('a status that is a number', '/api/runs/status/update', () => ({ runId, status: 3 })),
    create('a runName that is a number', () => ({ runName: 5 })),
    create('a projectName that is a list', () => ({ projectName: ['p'] })),
    create('tags that are a string', () => ({ tags: 'a' })),
    create('a config that is an object, not a string', () => ({ config: { a: 1 } })),
    create('a config that encodes an array', () => ({ config: '[1]' })),
    create('a config that encodes a number', () => ({ config: '5' })),
    create('a config that is not JSON', () => ({ config: '{lr: 1}' })),
    create('systemMetadata that is not JSON', () => ({ systemMetadata: '{' })),
    create('loggerSettings that are not JSON', () => ({ loggerSettings: '{' })),
    create('a createdAt sent as a string', () => ({ createdAt: '1700000000000' })),
    create('a negative createdAt', () => ({ createdAt: -1 })),
    create('a fractional createdAt', () => ({ createdAt: 1.5 })),
    create('a createdAt beyond the last valid date', () => ({ createdAt: 8.64e15 + 1 })),
    create('a negative updatedAt', () => ({ updatedAt: -5 })),
    create('a forkRunId sent as a string', () => ({ forkRunId: String(runId), forkStep: 0 })),
    create('an inheritConfig sent as a string', () => ({ forkRunId: runId, forkStep: 0, inheritConfig: 'true' })),
    create('an externalId that is a number', () => ({ externalId: 7 })),
    row('notes that are a list', '/api/runs/notes/update', () => ({ runId, notes: ['x'] })),
    row('a displayId that is a number', '/api/runs/resume', () => ({ displayId: 1 })),
  ];
  itScenarios(t, scenarios, {
    after: async (res) => {
      expect((res.body.error as string).length).toBeGreaterThan(5);
      await expectFixtureUntouched();
    },
  });
});

describe('hostile inputs are never a 5xx', () => {
  const deep = (n: number): string => '['.repeat(n) + ']'.repeat(n);
  const deepObject = (n: number): string => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
  const cases: { name: string; url: string; payload: () => string }[] = [
    { name: 'a body nested 100,000 arrays deep', url: '/api/runs/create', payload: () => deep(100_000) },
    {
      name: 'a create config nested 100,000 objects deep',
      url: '/api/runs/create',
      payload: () => JSON.stringify({ runName: 'r', projectName: 'deep', config: deepObject(100_000) }),
    },
    {
      name: 'a config update nested 100,000 objects deep',
      url: '/api/runs/config/update',
      payload: () => JSON.stringify({ runId, config: deepObject(100_000) }),
    },
    {
      name: 'a status update with statusMetadata nested 100,000 deep',
      url: '/api/runs/status/update',
      payload: () => JSON.stringify({ runId, status: 'RUNNING', statusMetadata: deepObject(100_000) }),
    },
    {
      name: 'a model graph nested 100,000 deep',
      url: '/api/runs/modelGraph/create',
      payload: () => `{"runId":${runId},"graph":{"format":"f","nodes":${deepObject(100_000)}}}`,
    },
    {
      name: 'a body with a __proto__ key',
      url: '/api/runs/create',
      payload: () => '{"runName":"r","projectName":"p","__proto__":{"admin":true}}',
    },
    {
      name: 'a body with invalid UTF-8',
      url: '/api/runs/create',
      payload: () => Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]).toString('latin1'),
    },
  ];
  for (const c of cases) {
    it(`${c.name} is answered below 500 with an error string and a code when refused`, async () => {
      const res = await rawPost(c.url, c.payload(), 'application/json');
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBeLessThan(500);
      if (res.status >= 400) expectError(res, res.status);
    });
  }

  it('a config nested 2,000 deep merged over itself is refused with a 400, not a stack overflow', async () => {
    const config = deepObject(2_000);
    const first = await call(t.app, 'POST', '/api/runs/config/update', t.key, { runId, config });
    expect(first.status).toBeLessThan(500);
    const second = await call(t.app, 'POST', '/api/runs/config/update', t.key, { runId, config });
    expect(second.status).toBeLessThan(500);
    if (second.status >= 400) expectError(second, second.status);
  });

  it('unknown paths and methods are 404s with the error shape', async () => {
    for (const [method, url] of [
      ['GET', '/api/runs/details'],
      ['POST', '/api/runs/details/1'],
      ['GET', '/api/nothing'],
      ['POST', '/api/runs/status/history'],
    ] as const) {
      const res = await call(t.app, method, url, t.key, method === 'POST' ? {} : undefined);
      expect(res.status, `${method} ${url}`).toBeLessThan(500);
      expectError(res, res.status);
    }
  });

  it('query values outside their bounds are 400s', async () => {
    for (const url of [
      '/api/runs/status/history?runId=1.25',
      '/api/runs/status/history?runId=ten',
      '/api/runs/modelGraph?runId=-3',
      `/api/runs/details/by-display-id/MMP-1?projectName=`,
    ]) {
      expectError(await call(t.app, 'GET', url, t.key), 400);
    }
  });
});
