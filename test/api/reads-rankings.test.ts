import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeRunId } from '../../src/domain/sqid.js';
import { createRun, expectError, itScenarios, type Scenario } from '../helpers/run-api.js';
import { call, makeTestApp, type TestApp } from '../helpers/test-app.js';
import {
  getOk,
  getStatistics,
  ingestOk,
  ISO_MS,
  metricLine,
  pyNdjson,
  type PyValue,
  qs,
} from '../helpers/ingest-api.js';
import type { Compare, Leaderboard } from '../../src/api/schemas/rankings.js';
import type { RunRef } from '../../src/api/schemas/runs.js';

/**
 * One shared, read-only fixture. Project `lb` of organization acme:
 *   r1 loss 5, 3, 4, NaN   → MIN 3, MAX 5, AVG 4, LAST 4, VARIANCE 2/3
 *   r2 loss 1, 9           → MIN 1, MAX 9, AVG 5, LAST 9, VARIANCE 16
 *   r3 loss 4, 4, 4, 4     → MIN 4, MAX 4, AVG 4, LAST 4, VARIANCE 0
 *   r4 loss NaN, Infinity  → no finite value: not ranked
 *   r5 acc only            → no loss: not ranked
 *   r6 loss 2, 6, 10       → MIN 2, MAX 10, AVG 6, LAST 10, VARIANCE 32/3
 * Project `other` of acme: o1 loss 0 (must never appear in `lb`).
 * Project `lb` of organization rival: x1 loss -100 (must never appear for acme).
 */
let t: TestApp;
const runs: Record<string, RunRef> = {};
let publicUrl: string;

async function seed(
  key: string,
  name: string,
  projectName: string,
  series: Record<string, (number | null)[]>,
  extra: Record<string, unknown> = {},
): Promise<RunRef> {
  const run = await createRun(t.app, key, { runName: name, projectName, ...extra });
  const steps = Math.max(...Object.values(series).map((v) => v.length));
  const lines: PyValue[] = [];
  for (let s = 0; s < steps; s++) {
    const data: Record<string, PyValue> = {};
    for (const [logName, values] of Object.entries(series)) if (s < values.length) data[logName] = values[s] ?? null;
    lines.push(metricLine(s, data));
  }
  if (lines.length > 0) await ingestOk(t.app, key, 'metrics', { runId: run.runId }, pyNdjson(lines));
  return run;
}

beforeAll(async () => {
  t = await makeTestApp();
  publicUrl = t.deps.config.publicUrl;
  runs.r1 = await seed(
    t.key,
    'r1',
    'lb',
    { loss: [5, 3, 4, Number.NaN] },
    { tags: ['x', 'y'], config: JSON.stringify({ lr: 0.1 }) },
  );
  runs.r2 = await seed(t.key, 'r2', 'lb', { loss: [1, 9] });
  runs.r3 = await seed(t.key, 'r3', 'lb', { loss: [4, 4, 4, 4] });
  runs.r4 = await seed(t.key, 'r4', 'lb', { loss: [Number.NaN, Infinity] });
  runs.r5 = await seed(t.key, 'r5', 'lb', { acc: [0.5] });
  runs.r6 = await seed(t.key, 'r6', 'lb', { loss: [2, 6, 10] });
  runs.o1 = await seed(t.key, 'o1', 'other', { loss: [0] });
  runs.x1 = await seed(t.otherKey, 'x1', 'lb', { loss: [-100] });
});
afterAll(async () => {
  await t.close();
});

const id = (name: string): number => runs[name]!.runId;

describe('GET /api/runs/statistics', () => {
  it('answers the run and its metrics in the documented shape', async () => {
    const s = await getStatistics(t.app, t.key, { runId: id('r6'), projectName: 'lb' });
    expect(s).toEqual({
      runId: id('r6'),
      runName: 'r6',
      projectName: 'lb',
      url: `${publicUrl}/o/acme/projects/lb/${encodeRunId(id('r6'))}`,
      metrics: [
        {
          logName: 'loss',
          logGroup: '',
          count: 3,
          min: 2,
          max: 10,
          mean: 6,
          stddev: Math.sqrt(32 / 3),
          last: { step: 2, value: 10 },
        },
      ],
    });
  });

  it('uses the population standard deviation', async () => {
    const run = await seed(t.key, 'pop', 'stats', { v: [2, 4, 4, 4, 5, 5, 7, 9] });
    const [v] = (await getStatistics(t.app, t.key, { runId: run.runId })).metrics;
    expect(v).toMatchObject({ count: 8, mean: 5, stddev: 2 });
  });

  it('stays exact for values with a large common offset', async () => {
    const run = await seed(t.key, 'offset', 'stats', { v: [1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16] });
    const [v] = (await getStatistics(t.app, t.key, { runId: run.runId })).metrics;
    expect(v?.mean).toBe(1e9 + 10);
    expect(v?.stddev).toBeCloseTo(Math.sqrt(22.5), 6);
  });

  it('answers last as the last finite value with its step', async () => {
    const [loss] = (await getStatistics(t.app, t.key, { runId: id('r1') })).metrics;
    expect(loss).toMatchObject({ count: 3, min: 3, max: 5, mean: 4, last: { step: 2, value: 4 } });
  });

  it('lists metrics by logName and filters by logName and logGroup', async () => {
    const run = await seed(t.key, 'many', 'stats', {
      'train/loss': [1, 2],
      'train/acc': [0.1],
      'val/loss': [3],
      Z: [1],
      a: [2],
    });
    const all = await getStatistics(t.app, t.key, { runId: run.runId });
    expect(all.metrics.map((m) => m.logName)).toEqual(['Z', 'a', 'train/acc', 'train/loss', 'val/loss']);
    expect(all.metrics.map((m) => m.logGroup)).toEqual(['', '', 'train', 'train', 'val']);
    const byName = await getStatistics(t.app, t.key, { runId: run.runId, logName: 'train/loss' });
    expect(byName.metrics).toEqual([
      {
        logName: 'train/loss',
        logGroup: 'train',
        count: 2,
        min: 1,
        max: 2,
        mean: 1.5,
        stddev: 0.5,
        last: { step: 1, value: 2 },
      },
    ]);
    const byGroup = await getStatistics(t.app, t.key, { runId: run.runId, logGroup: 'train' });
    expect(byGroup.metrics.map((m) => m.logName)).toEqual(['train/acc', 'train/loss']);
    expect((await getStatistics(t.app, t.key, { runId: run.runId, logName: 'nope' })).metrics).toEqual([]);
  });

  it('answers an empty list for a run without metrics', async () => {
    const run = await createRun(t.app, t.key, { runName: 'empty', projectName: 'stats' });
    expect((await getStatistics(t.app, t.key, { runId: run.runId })).metrics).toEqual([]);
  });

  it('answers a metric with only non-finite values without counting them', async () => {
    const s = await getStatistics(t.app, t.key, { runId: id('r4') });
    for (const m of s.metrics) expect(m.count).toBe(0);
  });

  const refusals: Scenario[] = [
    {
      name: 'answers 404 with {error, code} for an unknown run',
      method: 'GET',
      url: '/api/runs/statistics?runId=987654',
      status: 404,
    },
    {
      name: 'answers 404 with {error, code} for a run of another project',
      method: 'GET',
      url: () => `/api/runs/statistics?runId=${id('o1')}&projectName=lb`,
      status: 404,
    },
    {
      name: 'answers 404 with {error, code} for a run of another organization',
      method: 'GET',
      url: () => `/api/runs/statistics?runId=${id('x1')}`,
      status: 404,
    },
    {
      name: 'answers 404 with {error, code} for a run of the caller seen with another organization key',
      method: 'GET',
      url: () => `/api/runs/statistics?runId=${id('r1')}&projectName=lb`,
      status: 404,
      asOther: true,
    },
    { name: 'answers 400 without a runId', method: 'GET', url: '/api/runs/statistics?projectName=lb', status: 400 },
  ];
  itScenarios(() => t, refusals);
});

const board = (params: Record<string, string | number | undefined>) =>
  getOk<Leaderboard>(t.app, t.key, `/api/runs/leaderboard?${qs({ projectName: 'lb', logName: 'loss', ...params })}`);

describe('GET /api/runs/leaderboard', () => {
  const cases: { aggregation?: string; direction?: string; order: [string, number][] }[] = [
    {
      aggregation: 'MIN',
      direction: 'ASC',
      order: [
        ['r2', 1],
        ['r6', 2],
        ['r1', 3],
        ['r3', 4],
      ],
    },
    {
      aggregation: 'MIN',
      direction: 'DESC',
      order: [
        ['r3', 4],
        ['r1', 3],
        ['r6', 2],
        ['r2', 1],
      ],
    },
    {
      aggregation: 'MAX',
      direction: 'ASC',
      order: [
        ['r3', 4],
        ['r1', 5],
        ['r2', 9],
        ['r6', 10],
      ],
    },
    {
      aggregation: 'MAX',
      direction: 'DESC',
      order: [
        ['r6', 10],
        ['r2', 9],
        ['r1', 5],
        ['r3', 4],
      ],
    },
    {
      aggregation: 'AVG',
      direction: 'ASC',
      order: [
        ['r1', 4],
        ['r3', 4],
        ['r2', 5],
        ['r6', 6],
      ],
    },
    {
      aggregation: 'AVG',
      direction: 'DESC',
      order: [
        ['r6', 6],
        ['r2', 5],
        ['r1', 4],
        ['r3', 4],
      ],
    },
    {
      aggregation: 'LAST',
      direction: 'ASC',
      order: [
        ['r1', 4],
        ['r3', 4],
        ['r2', 9],
        ['r6', 10],
      ],
    },
    {
      aggregation: 'LAST',
      direction: 'DESC',
      order: [
        ['r6', 10],
        ['r2', 9],
        ['r1', 4],
        ['r3', 4],
      ],
    },
    {
      aggregation: 'VARIANCE',
      direction: 'ASC',
      order: [
        ['r3', 0],
        ['r1', 2 / 3],
        ['r6', 32 / 3],
        ['r2', 16],
      ],
    },
    {
      aggregation: 'VARIANCE',
      direction: 'DESC',
      order: [
        ['r2', 16],
        ['r6', 32 / 3],
        ['r1', 2 / 3],
        ['r3', 0],
      ],
    },
    {
      order: [
        ['r1', 4],
        ['r3', 4],
        ['r2', 9],
        ['r6', 10],
      ],
    },
  ];
  for (const c of cases) {
    const label = c.aggregation ? `${c.aggregation} ${c.direction}` : 'the default LAST ASC';
    it(`ranks by ${label}, ties by runId ascending, leaving runs without a finite value out`, async () => {
      const res = await board({ aggregation: c.aggregation, direction: c.direction });
      expect(res).toMatchObject({
        projectName: 'lb',
        logName: 'loss',
        aggregation: c.aggregation ?? 'LAST',
        direction: c.direction ?? 'ASC',
        total: 4,
      });
      expect(res.runs.map((r) => r.runId)).toEqual(c.order.map(([name]) => id(name)));
      res.runs.forEach((r, i) => {
        expect(r.value).toBeCloseTo(c.order[i]![1], 12);
        expect(r.rank).toBe(i + 1);
      });
    });
  }

  it('answers each row with run fields, an ISO createdAt and parsed config', async () => {
    const res = await board({ aggregation: 'MIN', direction: 'ASC', limit: 4 });
    const r1 = res.runs.find((r) => r.runId === id('r1'));
    expect(r1).toEqual({
      rank: 3,
      runId: id('r1'),
      runName: 'r1',
      status: 'RUNNING',
      url: `${publicUrl}/o/acme/projects/lb/${encodeRunId(id('r1'))}`,
      value: 3,
      tags: ['x', 'y'],
      createdAt: expect.stringMatching(ISO_MS),
      config: { lr: 0.1 },
    });
    expect(res.runs.find((r) => r.runId === id('r2'))?.config).toBeNull();
  });

  it('numbers ranks as offset + position + 1 and keeps total as all ranked runs', async () => {
    const page = await board({ aggregation: 'MAX', direction: 'DESC', limit: 2, offset: 1 });
    expect(page.runs.map((r) => [r.rank, r.runId])).toEqual([
      [2, id('r2')],
      [3, id('r1')],
    ]);
    expect(page.total).toBe(4);
    const last = await board({ aggregation: 'MAX', direction: 'DESC', limit: 2, offset: 3 });
    expect(last.runs.map((r) => [r.rank, r.runId])).toEqual([[4, id('r3')]]);
    expect((await board({ offset: 10 })).runs).toEqual([]);
    expect((await board({ offset: 10 })).total).toBe(4);
  });

  it('accepts limit 1 and 100', async () => {
    expect((await board({ limit: 1 })).runs).toHaveLength(1);
    expect((await board({ limit: 100 })).runs).toHaveLength(4);
  });

  const invalid = (name: string, params: Record<string, string | number>): Scenario => ({
    name: `answers 400 for ${name}`,
    method: 'GET',
    url: `/api/runs/leaderboard?${qs({ projectName: 'lb', logName: 'loss', ...params })}`,
    status: 400,
  });
  itScenarios(
    () => t,
    [
      invalid('limit 0', { limit: 0 }),
      invalid('limit 101', { limit: 101 }),
      invalid('offset -1', { offset: -1 }),
      invalid('an unknown aggregation', { aggregation: 'MEDIAN' }),
      invalid('an unknown direction', { direction: 'UP' }),
    ],
  );

  it('answers 400 without a projectName or without a logName', async () => {
    expectError(await call(t.app, 'GET', '/api/runs/leaderboard?logName=loss', t.key), 400);
    expectError(await call(t.app, 'GET', '/api/runs/leaderboard?projectName=lb', t.key), 400);
  });

  it('answers an empty list with total 0 for an unknown project or metric', async () => {
    expect(await board({ projectName: 'nowhere' })).toMatchObject({ runs: [], total: 0 });
    expect(await board({ logName: 'nothing' })).toMatchObject({ runs: [], total: 0 });
  });

  it('ranks only the runs of the named project of the caller organization', async () => {
    expect((await board({ aggregation: 'MIN' })).runs.map((r) => r.runId)).not.toContain(id('o1'));
    const rival = await getOk<Leaderboard>(t.app, t.otherKey, '/api/runs/leaderboard?projectName=lb&logName=loss');
    expect(rival.runs.map((r) => r.runId)).toEqual([id('x1')]);
    expect(rival.total).toBe(1);
  });
});

const compare = (runIds: string, logName = 'loss', key = t.key, projectName = 'lb') =>
  getOk<Compare>(t.app, key, `/api/runs/compare?${qs({ runIds, projectName, logName })}`);

describe('GET /api/runs/compare', () => {
  it('keeps the request order and answers count, min, max, mean and final', async () => {
    const res = await compare(`${id('r6')},${id('r1')},${id('r2')}`);
    expect(res.projectName).toBe('lb');
    expect(res.logName).toBe('loss');
    expect(res.runs).toEqual([
      {
        runId: id('r6'),
        runName: 'r6',
        url: `${publicUrl}/o/acme/projects/lb/${encodeRunId(id('r6'))}`,
        status: 'RUNNING',
        stats: { count: 3, min: 2, max: 10, mean: 6, final: 10 },
        config: null,
      },
      {
        runId: id('r1'),
        runName: 'r1',
        url: `${publicUrl}/o/acme/projects/lb/${encodeRunId(id('r1'))}`,
        status: 'RUNNING',
        stats: { count: 3, min: 3, max: 5, mean: 4, final: 4 },
        config: { lr: 0.1 },
      },
      {
        runId: id('r2'),
        runName: 'r2',
        url: `${publicUrl}/o/acme/projects/lb/${encodeRunId(id('r2'))}`,
        status: 'RUNNING',
        stats: { count: 2, min: 1, max: 9, mean: 5, final: 9 },
        config: null,
      },
    ]);
  });

  it('answers a comparison URL of the compared runs', async () => {
    const res = await compare(`${id('r2')},${id('r1')}`);
    expect(res.comparisonUrl).toBe(`${publicUrl}/o/acme/projects/lb/compare?runs=${id('r2')},${id('r1')}`);
  });

  it('omits unknown runs, runs of another organization and runs of another project', async () => {
    const res = await compare(`987654,${id('x1')},${id('r3')},${id('o1')},${id('r2')}`);
    expect(res.runs.map((r) => r.runId)).toEqual([id('r3'), id('r2')]);
  });

  it('answers stats null for runs without a finite value of the metric', async () => {
    const res = await compare(`${id('r4')},${id('r5')},${id('r3')}`);
    expect(res.runs.map((r) => [r.runId, r.stats])).toEqual([
      [id('r4'), null],
      [id('r5'), null],
      [id('r3'), { count: 4, min: 4, max: 4, mean: 4, final: 4 }],
    ]);
  });

  it('answers an empty list when no id is of the project', async () => {
    expect((await compare('987654')).runs).toEqual([]);
  });

  it('accepts 100 run ids and refuses 101 with 400', async () => {
    const ids = Array.from({ length: 100 }, (_, i) => 900_000 + i);
    expect((await compare([id('r1'), ...ids.slice(1)].join(','))).runs.map((r) => r.runId)).toEqual([id('r1')]);
    expectError(
      await call(
        t.app,
        'GET',
        `/api/runs/compare?${qs({ runIds: [...ids, 1].join(','), projectName: 'lb', logName: 'loss' })}`,
        t.key,
      ),
      400,
    );
  });

  it('answers 400 for run ids that are not integers and for missing parameters', async () => {
    for (const query of [
      { runIds: `${id('r1')},abc`, projectName: 'lb', logName: 'loss' },
      { runIds: '1.5', projectName: 'lb', logName: 'loss' },
      { projectName: 'lb', logName: 'loss' },
      { runIds: String(id('r1')), logName: 'loss' },
      { runIds: String(id('r1')), projectName: 'lb' },
    ]) {
      expectError(await call(t.app, 'GET', `/api/runs/compare?${qs(query)}`, t.key), 400);
    }
  });
});

describe('GET /api/runs/metric-names', () => {
  let runA: RunRef;
  let runB: RunRef;
  const names = async (params: Record<string, string | number | undefined>, key = t.key) =>
    (
      await getOk<{ projectName: string; metricNames: string[] }>(
        t.app,
        key,
        `/api/runs/metric-names?${qs({ projectName: 'names', ...params })}`,
      )
    ).metricNames;

  beforeAll(async () => {
    runA = await seed(t.key, 'a', 'names', {
      b: [1],
      B: [1],
      a: [1],
      A_1: [1],
      'a%b': [1],
      'train/loss': [1],
      'Train/Acc': [1],
      é: [1],
      AxB: [1],
      'back\\slash': [1],
    });
    runB = await seed(t.key, 'b', 'names', { b: [2], 'val/loss': [2], zz: [2] });
    await seed(t.otherKey, 'x', 'names', { secret: [1] });
  });

  it('answers distinct names sorted by code point, with the project name', async () => {
    const res = await getOk<{ projectName: string; metricNames: string[] }>(
      t.app,
      t.key,
      '/api/runs/metric-names?projectName=names',
    );
    expect(res).toEqual({
      projectName: 'names',
      metricNames: [
        'A_1',
        'AxB',
        'B',
        'Train/Acc',
        'a',
        'a%b',
        'b',
        'back\\slash',
        'train/loss',
        'val/loss',
        'zz',
        'é',
      ],
    });
  });

  const searches: { search: string; expected: string[] }[] = [
    { search: 'TRAIN', expected: ['Train/Acc', 'train/loss'] },
    { search: 'loss', expected: ['train/loss', 'val/loss'] },
    { search: '%', expected: ['a%b'] },
    { search: '_', expected: ['A_1'] },
    { search: 'a_1', expected: ['A_1'] },
    { search: 'a%', expected: ['a%b'] },
    { search: 'a_b', expected: [] },
    { search: '\\', expected: ['back\\slash'] },
    { search: 'k\\s', expected: ['back\\slash'] },
    { search: 'É', expected: [] },
    { search: 'nothing', expected: [] },
  ];
  for (const s of searches) {
    it(`searches case-insensitively for ${JSON.stringify(s.search)}, with % and _ taken literally`, async () => {
      const found = await names({ search: s.search });
      if (s.search === 'É') {
        // Case folding beyond ASCII is not promised; only that nothing else matches.
        expect(found.every((n) => n === 'é')).toBe(true);
      } else {
        expect(found).toEqual(s.expected);
      }
    });
  }

  it('scopes to the given runs', async () => {
    expect(await names({ runIds: String(runB.runId) })).toEqual(['b', 'val/loss', 'zz']);
    expect(await names({ runIds: `${runB.runId},${runA.runId}`, search: 'loss' })).toEqual(['train/loss', 'val/loss']);
    expect(await names({ runIds: '987654' })).toEqual([]);
    expect(await names({ runIds: String(id('r1')) })).toEqual([]);
  });

  it('returns at most limit names, the first ones in order', async () => {
    expect(await names({ limit: 3 })).toEqual(['A_1', 'AxB', 'B']);
    expect(await names({ limit: 1, search: 'loss' })).toEqual(['train/loss']);
  });

  it('answers 400 for limit 0 or 10001 and for run ids that are not integers', async () => {
    for (const q of [{ limit: 0 }, { limit: 10_001 }, { runIds: 'x,y' }]) {
      expectError(await call(t.app, 'GET', `/api/runs/metric-names?${qs({ projectName: 'names', ...q })}`, t.key), 400);
    }
  });

  it('answers an empty list for an unknown project and keeps organizations apart', async () => {
    expect(await names({ projectName: 'nowhere' })).toEqual([]);
    expect(await names({}, t.otherKey)).toEqual(['secret']);
    expect(await names({})).not.toContain('secret');
  });
});
