/**
 * The `id` field of the run filter language: the run's numeric id as GET /api/runs/list
 * answers it, integers only, `null` never matching; the same narrowing in GET
 * /api/runs/groups and /api/runs/groups/metrics (the dashboard leaves hidden runs out of a
 * group with `{"id": {"$nin": [..]}}`). Runs on SQLite and (Vitest project `postgres`) PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GroupMetrics, RunGroups } from '../../src/api/schemas/groups.js';
import { getOk, ingestSeries, qs } from '../helpers/ingest-api.js';
import { createRun, expectError } from '../helpers/run-api.js';
import { call, makeTestApp, type TestApp } from '../helpers/test-app.js';

const PROJECT = 'ids';
let t: TestApp;
const ids = new Map<string, number>();
const id = (name: string) => ids.get(name)!;

/** Four runs of lr 0.1 (a, b) and 0.2 (c, d); `loss` at steps 0..2 = base + step. */
const RUNS = [
  { name: 'a', lr: 0.1, base: 0 },
  { name: 'b', lr: 0.1, base: 10 },
  { name: 'c', lr: 0.2, base: 20 },
  { name: 'd', lr: 0.2, base: 30 },
];

beforeAll(async () => {
  t = await makeTestApp();
  for (const r of RUNS) {
    const ref = await createRun(t.app, t.key, {
      runName: r.name,
      projectName: PROJECT,
      config: JSON.stringify({ lr: r.lr }),
    });
    ids.set(r.name, ref.runId);
    await ingestSeries(t.app, t.key, { runId: ref.runId }, 0, 2, { loss: (s) => r.base + s });
  }
});
afterAll(async () => {
  await t?.close();
});

async function names(filter: () => unknown): Promise<string[]> {
  const url = `/api/runs/list?${qs({ projectName: PROJECT, filter: JSON.stringify(filter()), sort: 'name' })}`;
  const answer = await getOk<{ runs: { name: string }[] }>(t.app, t.key, url);
  return answer.runs.map((r) => r.name);
}

/** Filter cases: a description, the filter (ids filled in when the test runs) and the names it lists. */
const CASES: [string, () => unknown, string[]][] = [
  ['a plain id matches that run', () => ({ id: id('b') }), ['b']],
  ['$eq matches that run', () => ({ id: { $eq: id('c') } }), ['c']],
  ['$ne leaves that run out', () => ({ id: { $ne: id('c') } }), ['a', 'b', 'd']],
  ['$in matches the runs listed', () => ({ id: { $in: [id('a'), id('d'), 999_999_999] } }), ['a', 'd']],
  ['$nin leaves the runs listed out', () => ({ id: { $nin: [id('a'), id('d')] } }), ['b', 'c']],
  ['$gt and $lte compare ids as numbers', () => ({ id: { $gt: id('a'), $lte: id('c') } }), ['b', 'c']],
  ['$gte and $lt compare ids as numbers', () => ({ id: { $gte: id('b'), $lt: id('d') } }), ['b', 'c']],
  ['null never matches', () => ({ id: null }), []],
  ['$in with null matches only the ids', () => ({ id: { $in: [null, id('a')] } }), ['a']],
  ['$ne null matches every run', () => ({ id: { $ne: null } }), ['a', 'b', 'c', 'd']],
  ['$exists is true of every run', () => ({ id: { $exists: true } }), ['a', 'b', 'c', 'd']],
  ['$not negates the range', () => ({ id: { $not: { $gt: id('b') } } }), ['a', 'b']],
  ['an unknown id matches nothing', () => ({ id: 999_999_999 }), []],
  ['it ANDs with other fields', () => ({ id: { $nin: [id('a')] }, 'config.lr': 0.1 }), ['b']],
];

describe('the id field of the run filter', () => {
  for (const [name, filter, expected] of CASES) {
    it(name, async () => {
      expect(await names(filter)).toEqual(expected);
    });
  }

  const BAD: [string, unknown, RegExp][] = [
    ['a string', { id: '1' }, /^id: "1": id compares with run ids/],
    ['a fraction', { id: { $gt: 1.5 } }, /^id: 1\.5: id compares with run ids/],
    ['a boolean in $in', { id: { $in: [1, true] } }, /^id: true: id compares with run ids/],
    ['a range with null', { id: { $lt: null } }, /^id: null: id compares with run ids/],
    ['a $regex', { id: { $regex: '1' } }, /^id: \$regex applies to text fields/],
  ];
  for (const [what, filter, error] of BAD) {
    it(`refuses ${what} with a 400 naming the field`, async () => {
      const url = `/api/runs/list?${qs({ projectName: PROJECT, filter: JSON.stringify(filter) })}`;
      const res = await call(t.app, 'GET', url, t.key);
      expectError(res, 400, 'BAD_REQUEST');
      expect(String(res.body.error)).toMatch(error);
    });
  }

  it('is not a sort field', async () => {
    const res = await call(t.app, 'GET', `/api/runs/list?${qs({ projectName: PROJECT, sort: '-id' })}`, t.key);
    expectError(res, 400, 'BAD_REQUEST');
    expect(String(res.body.error)).toMatch(/^cannot sort by "id"/);
  });
});

describe('the id field narrows groups', () => {
  it('leaves the runs of $nin out of groups: runCount, runIds and summary', async () => {
    const filter = JSON.stringify({ id: { $nin: [id('b')] } });
    const url = `/api/runs/groups?${qs({ projectName: PROJECT, groupBy: 'config.lr', metrics: 'loss', filter })}`;
    const answer = await getOk<RunGroups>(t.app, t.key, url);
    expect(answer.groups.map((g) => [g.key['config.lr'], g.runCount, g.runIds, g.summary?.loss?.n])).toEqual([
      [0.1, 1, [id('a')], 1],
      [0.2, 2, [id('c'), id('d')], 2],
    ]);
    expect(answer.groups[0]!.summary!.loss).toEqual({ n: 1, mean: 2, std: null, min: 2, max: 2 });
  });

  it('leaves the runs of $nin out of groups/metrics: n and mean per bucket', async () => {
    const filter = JSON.stringify({ id: { $nin: [id('b'), id('d')] } });
    const params = { projectName: PROJECT, groupBy: 'config.lr', logName: 'loss', filter };
    const answer = await getOk<GroupMetrics>(t.app, t.key, `/api/runs/groups/metrics?${qs(params)}`);
    expect(answer.groups.map((g) => [g.key['config.lr'], g.runCount, g.points[0]])).toEqual([
      [0.1, 1, { step: 0, stepEnd: 0, n: 1, mean: 0, std: null, stderr: null, min: 0, max: 0 }],
      [0.2, 1, { step: 0, stepEnd: 0, n: 1, mean: 20, std: null, stderr: null, min: 20, max: 20 }],
    ]);
  });

  it('groups nothing when every run is left out', async () => {
    const filter = JSON.stringify({ id: { $in: [] } });
    const url = `/api/runs/groups?${qs({ projectName: PROJECT, groupBy: 'config.lr', filter })}`;
    expect(await getOk<RunGroups>(t.app, t.key, url)).toMatchObject({ groups: [], total: 0 });
  });
});
