import { beforeEach, describe, expect, it } from 'vitest';
import { createRun, expectError, getDetails } from '../helpers/run-api.js';
import { call, useTestApp } from '../helpers/test-app.js';
import { getOk, ingest, ingestOk, ISO_MS, pyDumps, pyNdjson, type PyValue, qs } from '../helpers/ingest-api.js';
import type { DataLine, LogLine } from '../../src/api/schemas/logs.js';
import type { RunRef } from '../../src/api/schemas/runs.js';

const t = useTestApp();
let run: RunRef;
beforeEach(async () => {
  run = await createRun(t.app, t.key, { runName: 'r', projectName: 'nlp' });
});

const target = () => ({ runId: run.runId, projectName: 'nlp' });

/** A console line as the Python client writes it (no step). */
const logLine = (lineNumber: number, message: string, time: number, logType = 'INFO'): PyValue => ({
  time,
  message,
  lineNumber,
  logType,
});

const getLogs = (params: Record<string, string | number | undefined> = {}) =>
  getOk<{ logs: LogLine[]; total: number }>(t.app, t.key, `/api/runs/logs?${qs({ runId: run.runId, ...params })}`);

const getData = (params: Record<string, string | number | undefined> = {}) =>
  getOk<{ data: DataLine[]; total: number }>(t.app, t.key, `/api/runs/data?${qs({ runId: run.runId, ...params })}`);

describe('POST /ingest/logs and GET /api/runs/logs', () => {
  it('returns the lines with every field, step 0 when none was sent', async () => {
    const body = pyNdjson([
      logLine(1, 'epoch 1 started', 1_000),
      { ...(logLine(2, 'warm', 1_001, 'WARNING') as object), step: 7 },
    ]);
    expect(await ingestOk(t.app, t.key, 'logs', target(), body)).toBe(2);
    const { logs, total } = await getLogs();
    expect(total).toBe(2);
    expect(logs).toEqual([
      { time: '1970-01-01T00:00:01.000Z', logType: 'INFO', lineNumber: 1, message: 'epoch 1 started', step: 0 },
      { time: '1970-01-01T00:00:01.001Z', logType: 'WARNING', lineNumber: 2, message: 'warm', step: 7 },
    ]);
    for (const l of logs) expect(l.time).toMatch(ISO_MS);
  });

  it('returns lines in the order they were produced: by time, then by arrival', async () => {
    await ingestOk(t.app, t.key, 'logs', target(), pyNdjson([logLine(3, 'third', 3_000), logLine(1, 'first', 1_000)]));
    await ingestOk(
      t.app,
      t.key,
      'logs',
      target(),
      pyNdjson([logLine(2, 'second', 2_000), logLine(9, 'first, later arrival', 1_000, 'ERROR')]),
    );
    const { logs, total } = await getLogs();
    expect(logs.map((l) => l.message)).toEqual(['first', 'first, later arrival', 'second', 'third']);
    expect(total).toBe(4);
  });

  it('keeps the arrival order of lines with the same time', async () => {
    await ingestOk(
      t.app,
      t.key,
      'logs',
      target(),
      pyNdjson([logLine(3, 'c', 500), logLine(1, 'a', 500), logLine(2, 'b', 500)]),
    );
    await ingestOk(t.app, t.key, 'logs', target(), pyNdjson([logLine(0, 'd', 500)]));
    expect((await getLogs()).logs.map((l) => l.message)).toEqual(['c', 'a', 'b', 'd']);
  });

  it('keeps message text as sent, NaN words, quotes and non-ASCII included', async () => {
    const messages = ['loss is NaN at step 3', 'Infinity and beyond', 'quote " and backslash \\', 'café ☕ 学习', ''];
    await ingestOk(t.app, t.key, 'logs', target(), pyNdjson(messages.map((m, i) => logLine(i + 1, m, 1_000 + i))));
    expect(pyDumps(messages[3]!)).toBe('"caf\\u00e9 \\u2615 \\u5b66\\u4e60"');
    expect((await getLogs()).logs.map((l) => l.message)).toEqual(messages);
  });

  it('answers compact JSON in the schema order of keys, escapes and long messages included, with its length', async () => {
    const messages = ['tab\there\nnew line \u0001', 'quote " \\ /', '\u2028 😀 é', 'x'.repeat(6_000)];
    await ingestOk(t.app, t.key, 'logs', target(), pyNdjson(messages.map((m, i) => logLine(i + 1, m, 1_000 + i))));
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/runs/logs?runId=${run.runId}&limit=2&offset=1`,
      headers: { authorization: `Bearer ${t.key}` },
    });
    const answer = {
      logs: messages.slice(1, 3).map((message, i) => ({
        time: `1970-01-01T00:00:01.00${i + 1}Z`,
        logType: 'INFO',
        lineNumber: i + 2,
        message,
        step: 0,
      })),
      total: 4,
    };
    expect(res.body).toBe(JSON.stringify(answer));
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.body)));
    const all = await getLogs();
    expect(all.logs.map((l) => l.message)).toEqual(messages);
  });

  it('filters by logType and counts only the matching lines in total', async () => {
    const lines = [
      logLine(1, 'a', 1, 'INFO'),
      logLine(2, 'b', 2, 'ERROR'),
      logLine(3, 'c', 3, 'INFO'),
      logLine(4, 'd', 4, 'DEBUG'),
      logLine(5, 'e', 5, 'PRINT'),
    ];
    await ingestOk(t.app, t.key, 'logs', target(), pyNdjson(lines));
    const info = await getLogs({ logType: 'INFO' });
    expect(info.logs.map((l) => l.message)).toEqual(['a', 'c']);
    expect(info.total).toBe(2);
    expect((await getLogs({ logType: 'ERROR' })).logs.map((l) => l.message)).toEqual(['b']);
    expect((await getLogs({ logType: 'WARNING' })).total).toBe(0);
    expect((await getLogs()).total).toBe(5);
  });

  it('stores a lower-case logType upper-cased', async () => {
    await ingestOk(t.app, t.key, 'logs', target(), pyNdjson([logLine(1, 'x', 1, 'warning')]));
    expect((await getLogs()).logs[0]?.logType).toBe('WARNING');
  });

  it('pages with limit and offset while total stays the count of all matching lines', async () => {
    const lines: PyValue[] = [];
    for (let i = 1; i <= 25; i++) lines.push(logLine(i, `line ${i}`, 10_000 + i, i % 2 === 0 ? 'ERROR' : 'INFO'));
    await ingestOk(t.app, t.key, 'logs', target(), pyNdjson(lines));
    const pages: string[] = [];
    for (let offset = 0; offset < 25; offset += 10) {
      const page = await getLogs({ limit: 10, offset });
      expect(page.total).toBe(25);
      pages.push(...page.logs.map((l) => l.message));
    }
    expect(pages).toEqual(Array.from({ length: 25 }, (_, i) => `line ${i + 1}`));
    const errors = await getLogs({ logType: 'ERROR', limit: 3, offset: 2 });
    expect(errors.logs.map((l) => l.lineNumber)).toEqual([6, 8, 10]);
    expect(errors.total).toBe(12);
    const beyond = await getLogs({ limit: 10, offset: 100 });
    expect(beyond).toEqual({ logs: [], total: 25 });
  });

  it('uses 1000 lines as the default limit', async () => {
    const lines: PyValue[] = [];
    for (let i = 1; i <= 1_005; i++) lines.push(logLine(i, `l${i}`, i));
    await ingestOk(t.app, t.key, 'logs', target(), pyNdjson(lines));
    const all = await getLogs();
    expect(all.logs).toHaveLength(1_000);
    expect(all.total).toBe(1_005);
    expect((await getLogs({ limit: 10_000 })).logs).toHaveLength(1_005);
  });

  it('stores a re-sent line once', async () => {
    const body = pyNdjson([logLine(1, 'a', 1_000), logLine(2, 'b', 1_001, 'ERROR')]);
    await ingestOk(t.app, t.key, 'logs', target(), body);
    await ingestOk(t.app, t.key, 'logs', target(), body);
    const { logs, total } = await getLogs();
    expect(total).toBe(2);
    expect(logs.map((l) => l.message)).toEqual(['a', 'b']);
  });

  const bounds: { name: string; query: Record<string, string | number> }[] = [
    { name: 'limit 0', query: { limit: 0 } },
    { name: 'limit 10001', query: { limit: 10_001 } },
    { name: 'a fractional limit', query: { limit: 1.5 } },
    { name: 'offset -1', query: { offset: -1 } },
    { name: 'a logType that is not a console type', query: { logType: 'CRITICAL' } },
    { name: 'a runId that is not a number', query: { runId: 'abc' } },
  ];
  for (const b of bounds) {
    it(`answers 400 for ${b.name}`, async () => {
      expectError(await call(t.app, 'GET', `/api/runs/logs?${qs({ runId: run.runId, ...b.query })}`, t.key), 400);
    });
  }

  it('answers 404 for an unknown run, a run of another organization and a run of another project', async () => {
    expectError(await call(t.app, 'GET', '/api/runs/logs?runId=987654', t.key), 404);
    expectError(await call(t.app, 'GET', `/api/runs/logs?runId=${run.runId}`, t.otherKey), 404);
    expectError(await call(t.app, 'GET', `/api/runs/logs?runId=${run.runId}&projectName=other`, t.key), 404);
    expect((await getLogs({ projectName: 'nlp' })).total).toBe(0);
  });

  const badLogs: { name: string; line: string }[] = [
    { name: 'misses its message', line: '{"time": 1, "lineNumber": 1, "logType": "INFO"}' },
    {
      name: 'has a message that is not a string',
      line: '{"time": 1, "message": 5, "lineNumber": 1, "logType": "INFO"}',
    },
    { name: 'has an unknown logType', line: '{"time": 1, "message": "m", "lineNumber": 1, "logType": "LOUD"}' },
    { name: 'has a fractional lineNumber', line: '{"time": 1, "message": "m", "lineNumber": 1.5, "logType": "INFO"}' },
    { name: 'has a negative time', line: '{"time": -1, "message": "m", "lineNumber": 1, "logType": "INFO"}' },
  ];
  for (const b of badLogs) {
    it(`refuses a batch whose line 2 ${b.name}, naming line 2 and storing nothing`, async () => {
      const res = await ingest(t.app, t.key, 'logs', target(), `${pyDumps(logLine(1, 'ok', 1))}\n${b.line}\n`);
      expectError(res, 400);
      expect(res.body.error).toMatch(/\bline 2\b/);
      expect(await getLogs()).toEqual({ logs: [], total: 0 });
    });
  }

  it('answers 400 for X-Run-Id None and 404 for a run of another organization', async () => {
    const body = pyNdjson([logLine(1, 'a', 1)]);
    expectError(await ingest(t.app, t.key, 'logs', { runId: 'None' }, body), 400);
    expectError(await ingest(t.app, t.otherKey, 'logs', target(), body), 404);
    expect((await getLogs()).total).toBe(0);
  });
});

/** A data line as the Python client writes it: `data` is itself JSON text. */
const dataLine = (logName: string, dataType: string, step: number, data: PyValue, time = 5_000 + step): PyValue => ({
  time,
  data: pyDumps(data),
  dataType,
  logName,
  step,
});

describe('POST /ingest/data and GET /api/runs/data', () => {
  it('registers each logName with the logType its dataType names, DATA when it names none', async () => {
    const body = pyNdjson([
      dataLine('weights/hist', 'HISTOGRAM', 0, { freq: [1, 2, 3], bins: [0, 1, 2, 3] }),
      dataLine('eval/table', 'TABLE', 0, { columns: ['a'], rows: [[1]] }),
      dataLine('model/graph', 'GRAPH', 0, { nodes: [] }),
      dataLine('notes', 'TEXT', 0, 'hello'),
      dataLine('custom', 'WIDGET', 0, { x: 1 }),
    ]);
    expect(await ingestOk(t.app, t.key, 'data', target(), body)).toBe(5);
    const { logNames } = await getDetails(t.app, t.key, run.runId);
    const byName = Object.fromEntries(logNames.map((l) => [l.logName, [l.logType, l.logGroup]]));
    expect(byName).toEqual({
      'weights/hist': ['HISTOGRAM', 'weights'],
      'eval/table': ['TABLE', 'eval'],
      'model/graph': ['GRAPH', 'model'],
      notes: ['TEXT', ''],
      custom: ['DATA', ''],
    });
  });

  it('reads the lines back with their data text unchanged, ordered by step', async () => {
    const hist = { freq: [1, 2, 3], bins: [0, 0.5, 1, 1.5], shape: 'uniform' };
    await ingestOk(
      t.app,
      t.key,
      'data',
      target(),
      pyNdjson([dataLine('h', 'HISTOGRAM', 2, hist), dataLine('h', 'HISTOGRAM', 1, { freq: [] })]),
    );
    const { data, total } = await getData();
    expect(total).toBe(2);
    expect(data).toEqual([
      { time: '1970-01-01T00:00:05.001Z', step: 1, logName: 'h', dataType: 'HISTOGRAM', data: pyDumps({ freq: [] }) },
      { time: '1970-01-01T00:00:05.002Z', step: 2, logName: 'h', dataType: 'HISTOGRAM', data: pyDumps(hist) },
    ]);
    expect(JSON.parse(data[1]!.data)).toEqual(hist);
  });

  it('stores object data as JSON text, with NaN tokens inside it as null', async () => {
    const body = '{"time": 1, "step": 0, "logName": "t", "dataType": "TABLE", "data": {"rows": [[1, NaN]]}}\n';
    await ingestOk(t.app, t.key, 'data', target(), body);
    const [line] = (await getData()).data;
    expect(JSON.parse(line!.data)).toEqual({ rows: [[1, null]] });
  });

  it('filters by logName and pages with limit and offset', async () => {
    const lines: PyValue[] = [];
    for (let s = 0; s < 6; s++) lines.push(dataLine('a', 'HISTOGRAM', s, { s }), dataLine('b', 'TABLE', s, { s }));
    await ingestOk(t.app, t.key, 'data', target(), pyNdjson(lines));
    const a = await getData({ logName: 'a' });
    expect(a.total).toBe(6);
    expect(a.data.every((d) => d.logName === 'a')).toBe(true);
    expect(a.data.map((d) => d.step)).toEqual([0, 1, 2, 3, 4, 5]);
    const page = await getData({ logName: 'b', limit: 2, offset: 3 });
    expect(page.data.map((d) => d.step)).toEqual([3, 4]);
    expect(page.total).toBe(6);
    expect((await getData()).total).toBe(12);
  });

  it('stores a re-sent line once', async () => {
    const body = pyNdjson([dataLine('h', 'HISTOGRAM', 0, { a: 1 }), dataLine('h', 'HISTOGRAM', 1, { a: 2 })]);
    await ingestOk(t.app, t.key, 'data', target(), body);
    await ingestOk(t.app, t.key, 'data', target(), body);
    expect((await getData()).total).toBe(2);
    expect((await getDetails(t.app, t.key, run.runId)).logNames).toHaveLength(1);
  });

  it('keeps a name registered by logName/add with its first type', async () => {
    expect(
      (
        await call(t.app, 'POST', '/api/runs/logName/add', t.key, {
          runId: run.runId,
          logName: ['h'],
          logType: 'IMAGE',
        })
      ).status,
    ).toBe(200);
    await ingestOk(t.app, t.key, 'data', target(), pyNdjson([dataLine('h', 'HISTOGRAM', 0, { a: 1 })]));
    expect((await getDetails(t.app, t.key, run.runId)).logNames).toEqual([
      { logName: 'h', logType: 'IMAGE', logGroup: '' },
    ]);
  });

  it('refuses a batch with a line without logName, naming it, storing and registering nothing', async () => {
    const body = `${pyDumps(dataLine('ok', 'TABLE', 0, {}))}\n\n{"time": 1, "step": 1, "dataType": "TABLE", "data": "{}"}\n`;
    const res = await ingest(t.app, t.key, 'data', target(), body);
    expectError(res, 400);
    expect(res.body.error).toMatch(/\bline 3\b/);
    expect((await getData()).total).toBe(0);
    expect((await getDetails(t.app, t.key, run.runId)).logNames).toEqual([]);
  });

  it('answers 400 for limit 0 and 10001 and offset -1, and 404 for a foreign run', async () => {
    for (const q of [{ limit: 0 }, { limit: 10_001 }, { offset: -1 }]) {
      expectError(await call(t.app, 'GET', `/api/runs/data?${qs({ runId: run.runId, ...q })}`, t.key), 400);
    }
    expectError(await call(t.app, 'GET', `/api/runs/data?runId=${run.runId}`, t.otherKey), 404);
  });
});
