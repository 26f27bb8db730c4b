/**
 * Bounded answers of runs/list, runs/details and runs/files (issue 25, item 2), with small
 * bounds so that they are reached cheaply: a 200 kB answer, 2,000 items per read and 3,000 log
 * names per run. The memory side (ten concurrent lists of 8 MB configs) is
 * test/e2e/list-memory.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { createRun, expectError, getDetails } from '../helpers/run-api.js';
import { call, makeTestApp, type TestApp, useTestApp } from '../helpers/test-app.js';
import { ingest, metricLine, pyNdjson, qs } from '../helpers/ingest-api.js';
import type { RunDetails } from '../../src/api/schemas/runs.js';

const MAX_BYTES = 200_000;
const MAX_ITEMS = 2_000;
const MAX_LOG_NAMES = 3_000;
const t = useTestApp({
  STEPWISE_READ_MAX_BYTES: String(MAX_BYTES),
  STEPWISE_READ_MAX_ITEMS: String(MAX_ITEMS),
  STEPWISE_RUN_MAX_LOG_NAMES: String(MAX_LOG_NAMES),
});

interface ListRow {
  id: number;
  config: unknown;
}
const list = (params: Record<string, string | number | undefined>) =>
  call(t.app, 'GET', `/api/runs/list?${qs(params)}`, t.key);
const newRun = async (projectName: string, config?: unknown) =>
  (
    await createRun(t.app, t.key, {
      runName: 'r',
      projectName,
      config: config === undefined ? null : JSON.stringify(config),
    })
  ).runId;
const addNames = (runId: number, names: string[]) =>
  call(t.app, 'POST', '/api/runs/logName/add', t.key, { runId, logName: names, logType: 'METRIC' });
const names = (n: number, prefix = 'm') => Array.from({ length: n }, (_, i) => `${prefix}/${i}`);

describe('GET /api/runs/list with configKeys', () => {
  const config = { lr: 0.01, batch_size: 32, opt: { name: 'adam', beta: [0.9, 0.99] }, big: 'x'.repeat(1000) };

  it('answers only the named keys, nested as in the config, leaving missing keys out and unset configs null', async () => {
    const a = await newRun('keys', config);
    const b = await newRun('keys');
    const res = await list({
      projectName: 'keys',
      configKeys: 'lr, opt.beta,missing,opt.name.deeper',
      sort: 'createdAt',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rows = res.body.runs as ListRow[];
    expect(rows.map((r) => [r.id, r.config])).toEqual([
      [a, { lr: 0.01, opt: { beta: [0.9, 0.99] } }],
      [b, null],
    ]);
    expect(res.body.total).toBe(2);
  });

  it('answers every set config as {} for an empty configKeys, and the whole config without configKeys', async () => {
    const a = await newRun('empty-keys', config);
    const none = await list({ projectName: 'empty-keys', configKeys: '' });
    expect((none.body.runs as ListRow[]).map((r) => r.config)).toEqual([{}]);
    const whole = await list({ projectName: 'empty-keys' });
    expect(whole.body.runs as ListRow[]).toEqual([expect.objectContaining({ id: a, config })]);
  });

  it.each([
    ['an empty key', 'a..b', 'empty key'],
    ['a key with a quote', 'a"b', 'cannot be selected'],
    ['a key with a backslash', 'a\\b', 'cannot be selected'],
    ['more than 100 keys', names(101, 'k').join(','), 'at most 100'],
    ['a path of 33 keys', names(33, 'k').join('.'), 'more than 32'],
  ])('refuses %s with a 400 that says so', async (_name, configKeys, message) => {
    await newRun('bad-keys', config);
    const res = await list({ projectName: 'bad-keys', configKeys });
    expectError(res, 400, 'BAD_REQUEST');
    expect(res.body.error).toContain(message);
  });
});

describe('the byte bound of GET /api/runs/list', () => {
  /** About 80 kB of config: three runs' configs pass the 200 kB bound, two do not. */
  const big = (i: number) => ({ lr: i, blob: `${i}`.repeat(80_000) });

  it('refuses a page whose configs would pass the bound, naming limit and configKeys, and answers smaller ones', async () => {
    for (let i = 1; i <= 3; i++) await newRun('big', big(i));
    const res = await list({ projectName: 'big', limit: 3 });
    expectError(res, 400, 'RESULT_TOO_LARGE');
    expect(res.body.error).toContain('limit');
    expect(res.body.error).toContain('configKeys');
    expect(res.body.error).toContain('STEPWISE_READ_MAX_BYTES');
    const two = await list({ projectName: 'big', limit: 2, sort: 'createdAt' });
    expect(two.status, JSON.stringify(two.body)).toBe(200);
    expect((two.body.runs as ListRow[]).map((r) => r.config)).toEqual([big(1), big(2)]);
    const picked = await list({ projectName: 'big', limit: 3, configKeys: 'lr', sort: 'createdAt' });
    expect((picked.body.runs as ListRow[]).map((r) => r.config)).toEqual([{ lr: 1 }, { lr: 2 }, { lr: 3 }]);
  });

  it('refuses picked keys whose values would pass the bound', async () => {
    for (let i = 1; i <= 3; i++) await newRun('big-keys', big(i));
    const res = await list({ projectName: 'big-keys', limit: 3, configKeys: 'blob' });
    expectError(res, 400, 'RESULT_TOO_LARGE');
  });

  it('answers stored text exactly, astral characters and escapes included, across the pieces it is sent in', async () => {
    // Two offsets, so that one of them puts a surrogate pair across a 64 K-character piece boundary.
    const configs = [1, 2].map((pad) => ({ s: `${'p'.repeat(pad)}${'\u{1F600}'.repeat(40_000)}`, q: '"\\\n\u2028' }));
    for (const c of configs) await newRun('astral', c);
    for (const offset of [0, 1]) {
      const res = await list({ projectName: 'astral', limit: 1, offset, sort: 'createdAt' });
      expect(res.status, JSON.stringify(res.body).slice(0, 200)).toBe(200);
      expect((res.body.runs as ListRow[])[0]!.config).toEqual(configs[offset]);
    }
  });
});

describe('GET /api/runs/details bounds', () => {
  it('answers a run with its log names and JSON fields as before', async () => {
    const runId = await newRun('details', { lr: 1, nested: { a: [1, 'é'] } });
    expect((await addNames(runId, ['b/x', 'a'])).status).toBe(200);
    const d: RunDetails = await getDetails(t.app, t.key, runId);
    expect(d.config).toEqual({ lr: 1, nested: { a: [1, 'é'] } });
    expect(d.logNames).toEqual([
      { logName: 'a', logType: 'METRIC', logGroup: '' },
      { logName: 'b/x', logType: 'METRIC', logGroup: 'b' },
    ]);
    expect(d).toMatchObject({
      id: runId,
      systemMetadata: null,
      loggerSettings: null,
      statusMetadata: null,
      notes: null,
    });
  });

  it('refuses, by id and by display id, a run with more log names than one read may answer', async () => {
    const run = await createRun(t.app, t.key, { runName: 'wide', projectName: 'wide-details' });
    for (let i = 0; i < 3; i++) expect((await addNames(run.runId, names(1000, `g${i}`))).status).toBe(200);
    for (const url of [`/api/runs/details/${run.runId}`, `/api/runs/details/by-display-id/${run.displayId}`]) {
      const res = await call(t.app, 'GET', url, t.key);
      expectError(res, 400, 'RESULT_TOO_LARGE');
      expect(res.body.error).toContain('3000 log names');
      expect(res.body.error).toContain('metric-names');
    }
  });

  it('refuses a run whose config and metadata would pass the byte bound', async () => {
    const runId = await newRun('big-details', { blob: 'x'.repeat(150_000) });
    expect((await getDetails(t.app, t.key, runId)).config).toEqual({ blob: 'x'.repeat(150_000) });
    const updated = await call(t.app, 'POST', '/api/runs/config/update', t.key, {
      runId,
      config: JSON.stringify({ more: 'y'.repeat(60_000) }),
    });
    expect(updated.status).toBe(200);
    expectError(await call(t.app, 'GET', `/api/runs/details/${runId}`, t.key), 400, 'RESULT_TOO_LARGE');
  });
});

describe('the log-name cap of a run', () => {
  it('refuses logName/add past the cap with a 400 that names it, storing none of that request', async () => {
    const runId = await newRun('cap');
    expect((await addNames(runId, names(2_990))).status).toBe(200);
    const res = await addNames(runId, names(20, 'late'));
    expectError(res, 400, 'BAD_REQUEST');
    expect(res.body.error).toContain(`at most ${MAX_LOG_NAMES} log names`);
    expect((await addNames(runId, names(10, 'late'))).status).toBe(200);
    expectError(await addNames(runId, ['one-more']), 400, 'BAD_REQUEST');
  });

  it('refuses a metrics ingest that would take a run past the cap, storing none of its points', async () => {
    const runId = await newRun('cap-ingest');
    const data = Object.fromEntries(names(MAX_LOG_NAMES + 1).map((n) => [n, 1]));
    const res = await ingest(t.app, t.key, 'metrics', { runId }, pyNdjson([metricLine(0, data)]));
    expectError(res, 400, 'BAD_REQUEST');
    expect(res.body.error).toContain(`at most ${MAX_LOG_NAMES} log names`);
    const stats = await call(t.app, 'GET', `/api/runs/statistics?runId=${runId}`, t.key);
    expect(stats.body.metrics).toEqual([]);
    expect((await getDetails(t.app, t.key, runId)).logNames).toEqual([]);
  });

  it('refuses POST /files whose names would take a run past the cap', async () => {
    const runId = await newRun('cap-files');
    expect((await addNames(runId, names(MAX_LOG_NAMES))).status).toBe(200);
    const file = { fileName: 'a.png', logName: 'img/new', fileSize: 1, fileType: 'png', step: 0, time: 1 };
    const res = await call(t.app, 'POST', '/files', t.key, { files: [file] }, { 'x-run-id': String(runId) });
    expectError(res, 400, 'BAD_REQUEST');
  });
});

describe('GET /api/runs/files bounds', () => {
  /** Records `n` uploaded files of a run straight in the series store, each with a caption of `caption` characters. */
  async function storeFiles(app: TestApp, runId: number, n: number, caption: number): Promise<void> {
    const inputs = Array.from({ length: n }, (_, i) => ({
      logName: `img/${i % 2}`,
      fileName: `f${String(i).padStart(5, '0')}.png`,
      fileType: 'png',
      fileSize: 1,
      step: i,
      sampleIndex: 0,
      time: 1,
      caption: 'c'.repeat(caption),
      blobKey: `k/${runId}/${i}`,
    }));
    const records = await app.stores.series.createFiles(runId, inputs);
    for (const r of records) await app.stores.series.markFileUploaded(r.blobKey, 1, 2);
  }
  const listFiles = (runId: number, params: Record<string, string | number | undefined> = {}) =>
    call(t.app, 'GET', `/api/runs/files?${qs({ runId, ...params })}`, t.key);
  const fileNames = (body: Record<string, unknown>) => (body.files as { fileName: string }[]).map((f) => f.fileName);

  it('refuses a listing that would pass the byte bound, asking for a filter or paging, and answers pages', async () => {
    const runId = await newRun('files-bytes');
    await storeFiles(t, runId, 30, 9_000);
    const res = await listFiles(runId);
    expectError(res, 400, 'RESULT_TOO_LARGE');
    expect(res.body.error).toContain('logGroup');
    expect(res.body.error).toContain('limit and offset');
    const page = await listFiles(runId, { limit: 5, offset: 10 });
    expect(page.status, JSON.stringify(page.body).slice(0, 300)).toBe(200);
    expect(fileNames(page.body)).toEqual(['f00010.png', 'f00011.png', 'f00012.png', 'f00013.png', 'f00014.png']);
    const one = await listFiles(runId, { logName: 'img/1', limit: 2 });
    expect(fileNames(one.body)).toEqual(['f00001.png', 'f00003.png']);
    expectError(await listFiles(runId, { limit: 0 }), 400);
    expectError(await listFiles(runId, { limit: 10_001 }), 400);
  });

  it('refuses a listing of more than 10,000 files, and answers 10,000 of them with limit', async () => {
    // The default byte bound (64 MB) here, so that only the count bound is reached.
    const roomy = await makeTestApp();
    try {
      const runId = (await createRun(roomy.app, roomy.key, { runName: 'r', projectName: 'files-count' })).runId;
      await storeFiles(roomy, runId, 10_001, 0);
      const url = (params: Record<string, number>) => `/api/runs/files?${qs({ runId, ...params })}`;
      const res = await call(roomy.app, 'GET', url({}), roomy.key);
      expectError(res, 400, 'RESULT_TOO_LARGE');
      expect(res.body.error).toContain('more than 10000 files');
      const page = await call(roomy.app, 'GET', url({ limit: 10_000 }), roomy.key);
      expect(page.status).toBe(200);
      expect(fileNames(page.body)).toHaveLength(10_000);
    } finally {
      await roomy.close();
    }
  }, 120_000);
});
