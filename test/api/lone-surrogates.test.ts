/**
 * Lone surrogates (an unpaired \uD800-\uDFFF escape): no engine stores one as sent, so names,
 * keys, JSON bodies and JSON values holding one are refused with a 400 and nothing is
 * written; NDJSON free text (console messages, string data) keeps U+FFFD in its place; a
 * query string must be percent-encoded UTF-8; a header can only be compared, never stored.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createRun, expectError, getDetails, getHistory } from '../helpers/run-api.js';
import { call, useTestApp } from '../helpers/test-app.js';
import { getOk, ingest, type IngestKind } from '../helpers/ingest-api.js';
import type { DataLine, LogLine } from '../../src/api/schemas/logs.js';
import type { RunRef } from '../../src/api/schemas/runs.js';

const t = useTestApp();
let run: RunRef;
beforeEach(async () => {
  run = await createRun(t.app, t.key, { runName: 'r', projectName: 'p' });
});

const target = () => ({ runId: run.runId, projectName: 'p' });

/** Nothing of a refused request may be left: no log names, points, lines, tags or config. */
async function expectNothingWritten(): Promise<void> {
  const details = await getDetails(t.app, t.key, run.runId);
  expect(details).toMatchObject({ name: 'r', logNames: [], tags: [], config: null, notes: null });
  expect(await getHistory(t.app, t.key, run.runId)).toHaveLength(1);
  const stats = await getOk<{ metrics: unknown[] }>(t.app, t.key, `/api/runs/statistics?runId=${run.runId}`);
  expect(stats.metrics).toEqual([]);
  const data = await getOk<{ total: number }>(t.app, t.key, `/api/runs/data?runId=${run.runId}`);
  expect(data.total).toBe(0);
}

describe('NDJSON names with a lone surrogate', () => {
  const cases: { name: string; kind: IngestKind; body: string }[] = [
    { name: 'a metric name', kind: 'metrics', body: '{"time":1,"step":0,"data":{"lone\\ud800":1}}' },
    {
      name: 'a low surrogate alone in a metric name',
      kind: 'metrics',
      body: '{"time":1,"step":0,"data":{"\\udc00x":1}}',
    },
    {
      name: 'a metric name on the second line after a good one',
      kind: 'metrics',
      body: '{"time":1,"step":0,"data":{"ok":1}}\n{"time":2,"step":1,"data":{"a\\ud83d":2}}',
    },
    {
      name: 'a data logName',
      kind: 'data',
      body: '{"time":1,"step":0,"data":"x","dataType":"TEXT","logName":"t\\ud800"}',
    },
    {
      name: 'a data dataType',
      kind: 'data',
      body: '{"time":1,"step":0,"data":"x","dataType":"T\\udfff","logName":"t"}',
    },
    {
      name: 'a key inside object data',
      kind: 'data',
      body: '{"time":1,"step":0,"data":{"k\\ud800":1},"dataType":"TABLE","logName":"t"}',
    },
  ];
  for (const c of cases) {
    it(`${c.name} is a 400 and registers no log name`, async () => {
      const res = await ingest(t.app, t.key, c.kind, target(), c.body);
      expectError(res, 400, 'BAD_REQUEST');
      expect(res.body.error).toMatch(/lone surrogate/);
      await expectNothingWritten();
    });
  }

  it('a surrogate pair (an emoji) in a metric name is stored as sent', async () => {
    const res = await ingest(t.app, t.key, 'metrics', target(), '{"time":1,"step":0,"data":{"mood/\\ud83d\\ude00":1}}');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await getDetails(t.app, t.key, run.runId)).logNames.map((l) => l.logName)).toEqual(['mood/😀']);
  });
});

describe('NDJSON free text with a lone surrogate', () => {
  it('a console message keeps U+FFFD in place of the lone surrogate', async () => {
    const body = '{"time":1,"message":"bad \\ud800 byte","lineNumber":1,"logType":"INFO"}';
    expect((await ingest(t.app, t.key, 'logs', target(), body)).status).toBe(200);
    const { logs } = await getOk<{ logs: LogLine[] }>(t.app, t.key, `/api/runs/logs?runId=${run.runId}`);
    expect(logs.map((l) => l.message)).toEqual(['bad \ufffd byte']);
  });

  it('string data keeps U+FFFD in place of the lone surrogate', async () => {
    const body = '{"time":1,"step":0,"data":"x\\udc00y","dataType":"TEXT","logName":"notes"}';
    expect((await ingest(t.app, t.key, 'data', target(), body)).status).toBe(200);
    const { data } = await getOk<{ data: DataLine[] }>(t.app, t.key, `/api/runs/data?runId=${run.runId}`);
    expect(data.map((d) => d.data)).toEqual(['x\ufffdy']);
  });
});

describe('JSON bodies with a lone surrogate', () => {
  const cases: { name: string; url: string; body: () => string }[] = [
    { name: 'a runName', url: '/api/runs/create', body: () => '{"runName":"r\\ud800","projectName":"q"}' },
    { name: 'a projectName', url: '/api/runs/create', body: () => '{"runName":"r","projectName":"q\\udbff"}' },
    { name: 'a tag', url: '/api/runs/tags/update', body: () => `{"runId":${run.runId},"tags":["lone\\ud800"]}` },
    { name: 'notes', url: '/api/runs/notes/update', body: () => `{"runId":${run.runId},"notes":"n\\udc00"}` },
    {
      name: 'a key of an ignored extra field',
      url: '/api/runs/notes/update',
      body: () => `{"runId":${run.runId},"notes":"n","x\\ud800":1}`,
    },
    {
      name: 'a key inside a JSON-encoded config',
      url: '/api/runs/config/update',
      body: () => JSON.stringify({ runId: run.runId, config: '{"lr\\ud800":1}' }),
    },
    {
      name: 'a value inside a JSON-encoded config on create',
      url: '/api/runs/create',
      body: () => JSON.stringify({ runName: 'r', projectName: 'q', config: '{"lr":"\\udc00"}' }),
    },
    {
      name: 'a log name',
      url: '/api/runs/logName/add',
      body: () => `{"runId":${run.runId},"logName":["x\\ud800"],"logType":"METRIC"}`,
    },
    {
      name: 'a file name',
      url: '/files',
      body: () => '{"files":[{"fileName":"f\\ud800.png","logName":"img","fileSize":1,"fileType":"png","step":0}]}',
    },
  ];
  for (const c of cases) {
    it(`${c.name} is a 400 and changes nothing`, async () => {
      const headers = { 'x-run-id': String(run.runId), 'x-project-name': 'p' };
      const res = await call(t.app, 'POST', c.url, t.key, c.body(), headers);
      expectError(res, 400);
      expect(res.body.error).toMatch(/lone surrogate/);
      await expectNothingWritten();
      const projects = await getOk<{ projects: { name: string }[] }>(t.app, t.key, '/api/runs/projects');
      expect(projects.projects.map((p) => p.name)).toEqual(['p']);
    });
  }

  it('an escaped backslash before "ud800" is plain text and is accepted', async () => {
    const res = await call(
      t.app,
      'POST',
      '/api/runs/notes/update',
      t.key,
      `{"runId":${run.runId},"notes":"\\\\ud800"}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await getDetails(t.app, t.key, run.runId)).notes).toBe('\\ud800');
  });
});

describe('lone surrogates in URLs and headers', () => {
  it.each([
    ['a lone surrogate in a logName filter', () => `/api/runs/metrics?runId=${run.runId}&logName=lone%ED%A0%80`],
    [
      'a lone low surrogate in a display-id lookup projectName',
      () => `/api/runs/details/by-display-id/P-1?projectName=%ED%B0%80`,
    ],
    ['a lone surrogate in a metric-names search', () => `/api/runs/metric-names?projectName=p&search=%ED%A0%80`],
    ['a Latin-1 byte', () => `/api/runs/metrics?runId=${run.runId}&logName=caf%E9`],
  ])('a query string with %s is a 400, as its percent-encoding is not UTF-8', async (_name, url) => {
    expectError(await call(t.app, 'GET', url(), t.key), 400, 'BAD_REQUEST');
  });

  it('a query string with an encoded emoji is read as that emoji', async () => {
    const res = await call(t.app, 'GET', `/api/runs/metrics?runId=${run.runId}&logName=%F0%9F%98%80`, t.key);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('an X-Project-Name with a lone surrogate is a 400 and ingests nothing', async () => {
    const res = await ingest(
      t.app,
      t.key,
      'metrics',
      { runId: run.runId, projectName: 'p\ud800' },
      '{"time":1,"step":0,"data":{"a":1}}',
    );
    expectError(res, 400, 'BAD_REQUEST');
    await expectNothingWritten();
  });
});
