/**
 * GET /api/runs/groups and /api/runs/groups/metrics as named scenarios: key order (numbers,
 * strings, booleans, null last), every field kind, narrowing with run search's meaning and
 * errors, summaries over last finite values, the run id cap with exact counts, bucket
 * limits and step windows, tenancy and every 400. Runs on SQLite and (Vitest project
 * `postgres`) PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GroupMetrics, RunGroups } from '../../src/api/schemas/groups.js';
import { createRun, expectError, itScenarios, type Scenario, setStatus, tenAtATime } from '../helpers/run-api.js';
import { getOk, ingestOk, ingestSeries, metricLine, pyNdjson, qs } from '../helpers/ingest-api.js';
import { call, makeTestApp, type TestApp } from '../helpers/test-app.js';

const PROJECT = 'grp';
let t: TestApp;
const ids = new Map<string, number>();

/**
 * Project `grp` of acme; `loss` at steps 0..9 = base + step, its last value base + 9:
 *   n1 lr 0.1   opt adam  FAILED    tag group:g1  base 1
 *   n2 lr 0.1   opt adam  COMPLETED tag group:g1  base 3
 *   n3 lr 0.01  opt sgd   COMPLETED tag group:g2  base 10
 *   s1 lr "0.1" (string)  RUNNING   no tags       base 100, last value NaN at step 10
 *   b1 lr true            RUNNING   tag x         no loss
 *   z1 no config          RUNNING   gpu A100      base 5
 * Project `grp` of rival: one run with lr 0.1 (never seen by acme).
 */
const RUNS: { name: string; config?: object; status: string; tags: string[]; base?: number; sys?: object }[] = [
  { name: 'n1', config: { lr: 0.1, opt: 'adam' }, status: 'FAILED', tags: ['group:g1'], base: 1 },
  { name: 'n2', config: { lr: 0.1, opt: 'adam' }, status: 'COMPLETED', tags: ['group:g1'], base: 3 },
  { name: 'n3', config: { lr: 0.01, opt: 'sgd' }, status: 'COMPLETED', tags: ['group:g2'], base: 10 },
  { name: 's1', config: { lr: '0.1' }, status: 'RUNNING', tags: [], base: 100 },
  { name: 'b1', config: { lr: true }, status: 'RUNNING', tags: ['x'] },
  { name: 'z1', status: 'RUNNING', tags: [], base: 5, sys: { gpu: 'A100' } },
];

beforeAll(async () => {
  t = await makeTestApp();
  for (const r of RUNS) {
    const ref = await createRun(t.app, t.key, {
      runName: r.name,
      projectName: PROJECT,
      tags: r.tags,
      ...(r.config && { config: JSON.stringify(r.config) }),
      ...(r.sys && { systemMetadata: JSON.stringify(r.sys) }),
    });
    ids.set(r.name, ref.runId);
    if (r.base !== undefined) {
      const base = r.base;
      await ingestSeries(t.app, t.key, { runId: ref.runId }, 0, 9, { loss: (s) => base + s });
    }
    if (r.status !== 'RUNNING') await setStatus(t.app, t.key, ref.runId, r.status);
  }
  await ingestOk(t.app, t.key, 'metrics', { runId: ids.get('s1')! }, pyNdjson([metricLine(10, { loss: NaN })]));
  await createRun(t.app, t.otherKey, { runName: 'r1', projectName: PROJECT, config: JSON.stringify({ lr: 0.1 }) });
});
afterAll(async () => {
  await t?.close();
});

const id = (name: string) => ids.get(name)!;
const groupsUrl = (params: Record<string, string | number | undefined>) =>
  `/api/runs/groups?${qs({ projectName: PROJECT, ...params })}`;
const metricsUrl = (params: Record<string, string | number | undefined>) =>
  `/api/runs/groups/metrics?${qs({ projectName: PROJECT, logName: 'loss', ...params })}`;
const get = (url: string): Scenario => ({ name: '', method: 'GET', url, status: 200 });

describe('GET /api/runs/groups', () => {
  it('orders groups by key: numbers ascending, then strings, then booleans, null last', async () => {
    const answer = await getOk<RunGroups>(t.app, t.key, groupsUrl({ groupBy: 'config.lr' }));
    expect(answer.groups.map((g) => [g.key['config.lr'], g.runCount])).toEqual([
      [0.01, 1],
      [0.1, 2],
      ['0.1', 1],
      [true, 1],
      [null, 1],
    ]);
    expect(answer).toMatchObject({ projectName: PROJECT, groupBy: ['config.lr'], total: 5 });
    expect(answer.groups[1]!.runIds).toEqual([id('n1'), id('n2')]);
  });

  it('groups by two fields, by status, by the group tag and by system metadata', async () => {
    const two = await getOk<RunGroups>(t.app, t.key, groupsUrl({ groupBy: 'config.lr, config.opt' }));
    expect(two.groups.map((g) => g.key)).toEqual([
      { 'config.lr': 0.01, 'config.opt': 'sgd' },
      { 'config.lr': 0.1, 'config.opt': 'adam' },
      { 'config.lr': '0.1', 'config.opt': null },
      { 'config.lr': true, 'config.opt': null },
      { 'config.lr': null, 'config.opt': null },
    ]);
    const status = await getOk<RunGroups>(t.app, t.key, groupsUrl({ groupBy: 'status' }));
    expect(status.groups.map((g) => [g.key.status, g.runCount])).toEqual([
      ['COMPLETED', 2],
      ['FAILED', 1],
      ['RUNNING', 3],
    ]);
    const tag = await getOk<RunGroups>(t.app, t.key, groupsUrl({ groupBy: 'group' }));
    expect(tag.groups.map((g) => [g.key.group, g.runCount])).toEqual([
      ['g1', 2],
      ['g2', 1],
      [null, 3],
    ]);
    const sys = await getOk<RunGroups>(t.app, t.key, groupsUrl({ groupBy: 'systemMetadata.gpu' }));
    expect(sys.groups.map((g) => [g.key['systemMetadata.gpu'], g.runIds])).toEqual([
      ['A100', [id('z1')]],
      [null, [id('n1'), id('n2'), id('n3'), id('s1'), id('b1')]],
    ]);
  });

  it('narrows with filter, search, tags and status as GET /api/runs/list does', async () => {
    const failed = await getOk<RunGroups>(
      t.app,
      t.key,
      groupsUrl({ groupBy: 'config.lr', status: 'failed,completed' }),
    );
    expect(failed.groups.map((g) => [g.key['config.lr'], g.runCount])).toEqual([
      [0.01, 1],
      [0.1, 2],
    ]);
    const filtered = await getOk<RunGroups>(
      t.app,
      t.key,
      groupsUrl({ groupBy: 'config.opt', filter: JSON.stringify({ 'config.lr': { $gt: 0.05 } }), tags: 'group:g1' }),
    );
    expect(filtered.groups.map((g) => [g.key['config.opt'], g.runIds])).toEqual([['adam', [id('n1'), id('n2')]]]);
    const named = await getOk<RunGroups>(t.app, t.key, groupsUrl({ groupBy: 'status', search: 'N' }));
    expect(named.total).toBe(2);
  });

  it("summarises metrics over the runs' last finite values (sample std, null when n < 2)", async () => {
    const answer = await getOk<RunGroups>(t.app, t.key, groupsUrl({ groupBy: 'config.lr', metrics: 'loss,acc' }));
    const byLr = new Map(answer.groups.map((g) => [JSON.stringify(g.key['config.lr']), g.summary]));
    expect(byLr.get('0.1')).toEqual({
      loss: { n: 2, mean: 11, std: Math.SQRT2, min: 10, max: 12 },
      acc: { n: 0, mean: null, std: null, min: null, max: null },
    });
    expect(byLr.get('0.01')!.loss).toEqual({ n: 1, mean: 19, std: null, min: 19, max: 19 });
    // s1's last point is NaN: its last finite value is 109.
    expect(byLr.get('"0.1"')!.loss).toMatchObject({ n: 1, mean: 109 });
    expect(byLr.get('true')!.loss).toMatchObject({ n: 0, mean: null });
  });

  it('lists at most 1,000 run ids per group while runCount stays exact', async () => {
    const many = await makeTestApp();
    try {
      await tenAtATime(1002, (i) =>
        createRun(many.app, many.key, { runName: `m${i}`, projectName: 'big', config: JSON.stringify({ k: 1 }) }),
      );
      const url = `/api/runs/groups?${qs({ projectName: 'big', groupBy: 'config.k' })}`;
      const answer = await getOk<RunGroups>(many.app, many.key, url);
      expect(answer.groups[0]!.runCount).toBe(1002);
      expect(answer.groups[0]!.runIds).toHaveLength(1000);
    } finally {
      await many.close();
    }
  }, 120_000);

  it('answers an unknown project with no groups, and another organization sees only its runs', async () => {
    const none = await getOk<RunGroups>(
      t.app,
      t.key,
      `/api/runs/groups?${qs({ projectName: 'nope', groupBy: 'status' })}`,
    );
    expect(none).toEqual({ projectName: 'nope', groupBy: ['status'], groups: [], total: 0 });
    const rival = await getOk<RunGroups>(t.app, t.otherKey, groupsUrl({ groupBy: 'config.lr' }));
    expect(rival.groups.map((g) => [g.key['config.lr'], g.runCount])).toEqual([[0.1, 1]]);
  });
});

const bad = (name: string, url: string, code = 'BAD_REQUEST'): Scenario => ({ ...get(url), name, status: 400, code });

describe('GET /api/runs/groups and groups/metrics refuse bad input with {error, code}', () => {
  itScenarios(
    () => t,
    [
      bad('refuses a missing groupBy', `/api/runs/groups?${qs({ projectName: PROJECT })}`, 'VALIDATION_FAILED'),
      bad('refuses a groupBy of no fields', groupsUrl({ groupBy: ' , ' })),
      bad('refuses an unknown groupBy field', groupsUrl({ groupBy: 'name' })),
      bad('refuses config without a key', groupsUrl({ groupBy: 'config' })),
      bad('refuses an empty key in a dotted path', groupsUrl({ groupBy: 'config.a..b' })),
      bad('refuses a key with a double quote', groupsUrl({ groupBy: 'config.a"b' })),
      bad('refuses more than three fields', groupsUrl({ groupBy: 'status,group,config.a,config.b' })),
      bad('refuses a field named twice', groupsUrl({ groupBy: 'status,status' })),
      bad('refuses an unknown status as run search does', groupsUrl({ groupBy: 'status', status: 'nope' })),
      bad('refuses a bad filter as run search does', groupsUrl({ groupBy: 'status', filter: '{' })),
      bad(
        'refuses more than 20 metrics',
        groupsUrl({ groupBy: 'status', metrics: Array.from({ length: 21 }, (_, i) => `m${i}`).join(',') }),
      ),
      bad('refuses a bucket limit of 0', metricsUrl({ groupBy: 'status', limit: 0 }), 'VALIDATION_FAILED'),
      bad('refuses a bucket limit over 10,000', metricsUrl({ groupBy: 'status', limit: 10_001 }), 'VALIDATION_FAILED'),
      bad('refuses a negative stepMin', metricsUrl({ groupBy: 'status', stepMin: -1 }), 'VALIDATION_FAILED'),
      bad(
        'refuses groups/metrics without a logName',
        `/api/runs/groups/metrics?${qs({ projectName: PROJECT, groupBy: 'status' })}`,
        'VALIDATION_FAILED',
      ),
      bad('refuses a bad groupBy field in groups/metrics', metricsUrl({ groupBy: 'metrics.loss' })),
    ],
  );
});

describe('GET /api/runs/groups/metrics', () => {
  it('answers one bucket a step when the range has at most limit steps, with n, mean, std, stderr, min, max', async () => {
    const answer = await getOk<GroupMetrics>(t.app, t.key, metricsUrl({ groupBy: 'config.lr' }));
    expect(answer).toMatchObject({ projectName: PROJECT, groupBy: ['config.lr'], logName: 'loss', total: 5 });
    const lr01 = answer.groups.find((g) => g.key['config.lr'] === 0.1)!;
    expect(lr01.runCount).toBe(2);
    expect(lr01.points).toHaveLength(10);
    expect(lr01.points[0]).toEqual({ step: 0, stepEnd: 0, n: 2, mean: 2, std: Math.SQRT2, stderr: 1, min: 1, max: 3 });
    const str = answer.groups.find((g) => g.key['config.lr'] === '0.1')!;
    // Step 10 holds only a NaN: no bucket (n = 0) for it, even though the range reaches it.
    expect(str.points.map((p) => p.step)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(str.points[0]).toMatchObject({ n: 1, mean: 100, std: null, stderr: null });
    expect(answer.groups.find((g) => g.key['config.lr'] === true)!.points).toEqual([]);
  });

  it('cuts the range into at most limit buckets of equal width, and counts non-finite points', async () => {
    const answer = await getOk<GroupMetrics>(t.app, t.key, metricsUrl({ groupBy: 'config.lr', limit: 3 }));
    // Steps 0..10 (11 steps) in buckets of 4: 0..3, 4..7, 8..10.
    const str = answer.groups.find((g) => g.key['config.lr'] === '0.1')!;
    expect(str.points).toEqual([
      { step: 0, stepEnd: 3, n: 1, mean: 101.5, std: null, stderr: null, min: 101.5, max: 101.5 },
      { step: 4, stepEnd: 7, n: 1, mean: 105.5, std: null, stderr: null, min: 105.5, max: 105.5 },
      { step: 8, stepEnd: 10, n: 1, mean: 108.5, std: null, stderr: null, min: 108.5, max: 108.5, nonFinite: 1 },
    ]);
  });

  it('keeps to stepMin and stepMax, and narrows runs like GET /api/runs/groups', async () => {
    const answer = await getOk<GroupMetrics>(
      t.app,
      t.key,
      metricsUrl({ groupBy: 'group', stepMin: 2, stepMax: 5, limit: 2, status: 'completed' }),
    );
    expect(answer.groups.map((g) => [g.key.group, g.runCount])).toEqual([
      ['g1', 1],
      ['g2', 1],
    ]);
    expect(answer.groups[0]!.points).toEqual([
      { step: 2, stepEnd: 3, n: 1, mean: 5.5, std: null, stderr: null, min: 5.5, max: 5.5 },
      { step: 4, stepEnd: 5, n: 1, mean: 7.5, std: null, stderr: null, min: 7.5, max: 7.5 },
    ]);
    const empty = await getOk<GroupMetrics>(t.app, t.key, metricsUrl({ groupBy: 'group', stepMin: 50 }));
    expect(empty.groups.every((g) => g.points.length === 0)).toBe(true);
    const unknown = await getOk<GroupMetrics>(t.app, t.key, metricsUrl({ groupBy: 'group', logName: 'nope' }));
    expect(unknown.total).toBe(3);
  });
});

describe('the bounds of GET /api/runs/groups', () => {
  it('refuses with RESULT_TOO_LARGE an answer past STEPWISE_READ_MAX_BYTES, asking for fewer or smaller fields', async () => {
    const small = await makeTestApp({ STEPWISE_READ_MAX_BYTES: '2000' });
    try {
      for (let i = 0; i < 3; i++) {
        const config = JSON.stringify({ note: 'x'.repeat(800) + i });
        await createRun(small.app, small.key, { runName: `w${i}`, projectName: 'wide', config });
      }
      const url = `/api/runs/groups?${qs({ projectName: 'wide', groupBy: 'config.note' })}`;
      const res = await call(small.app, 'GET', url, small.key);
      expectError(res, 400, 'RESULT_TOO_LARGE');
      expect(String(res.body.error)).toMatch(/fewer or smaller fields/);
      const ok = await call(
        small.app,
        'GET',
        `/api/runs/groups?${qs({ projectName: 'wide', groupBy: 'status' })}`,
        small.key,
      );
      expect(ok.status).toBe(200);
    } finally {
      await small.close();
    }
  });
});
