/**
 * GET /api/runs/list sorted and filtered by a metric's min, max and mean (summary_min.,
 * summary_max., summary_mean.) beside its last value: ties, runs without the metric,
 * non-finite points, a fork by its lineage, a metric name with dots. Runs on SQLite and
 * (Vitest project `postgres`) PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestSeries } from '../helpers/ingest-api.js';
import { createRun, expectError } from '../helpers/run-api.js';
import { call, makeTestApp } from '../helpers/test-app.js';

const t = await makeTestApp();
afterAll(() => t.close());
const P = 'aggs';

/**
 * loss by step; null = no point. Finite values, then last/min/max/mean:
 * r1 4 1 3 2 → 2/1/4/2.5 · r2 2 2 2 2 → 2/2/2/2 · r3 0 5 → 5/0/5/2.5 · r4 1 3 → 3/1/3/2 ·
 * r5 NaN only → none · r6 no loss · f forks r1 at step 1 and logs 10: 4 1 10 → 10/1/10/5.
 */
const LOSS: Record<string, number[]> = {
  r1: [4, 1, 3, 2],
  r2: [2, 2, 2, 2],
  r3: [NaN, 0, Infinity, 5],
  r4: [1, 3, NaN, -Infinity],
  r5: [NaN, NaN],
};
const nameOf = new Map<number, string>();

beforeAll(async () => {
  for (const name of ['r1', 'r2', 'r3', 'r4', 'r5', 'r6']) {
    const ref = await createRun(t.app, t.key, { runName: name, projectName: P });
    nameOf.set(ref.runId, name);
    const target = { runId: ref.runId, projectName: P };
    const loss = LOSS[name];
    if (loss) await ingestSeries(t.app, t.key, target, 0, loss.length - 1, { loss: (s) => loss[s]! });
    if (name === 'r1') await ingestSeries(t.app, t.key, target, 0, 2, { 'val/top.1': (s) => [0.1, 0.9, 0.5][s]! });
    if (name === 'r2') await ingestSeries(t.app, t.key, target, 0, 1, { 'val/top.1': (s) => [0.7, 0.3][s]! });
    if (name === 'r6') await ingestSeries(t.app, t.key, target, 0, 0, { other: () => 1 });
    // A mean that overflows (±1.7e308) is not finite: such a run has min and max but no mean.
    if (name === 'r1') await ingestSeries(t.app, t.key, target, 0, 1, { huge: (s) => [1.7e308, -1.7e308][s]! });
    if (name === 'r2') await ingestSeries(t.app, t.key, target, 0, 1, { huge: (s) => [1, 3][s]! });
  }
  const r1 = [...nameOf].find(([, n]) => n === 'r1')![0];
  const fork = await createRun(t.app, t.key, { runName: 'f', projectName: P, forkRunId: r1, forkStep: 1 });
  nameOf.set(fork.runId, 'f');
  await ingestSeries(t.app, t.key, { runId: fork.runId, projectName: P }, 2, 2, { loss: () => 10 });
});

async function names(query: Record<string, string | number>): Promise<string[]> {
  const qs = new URLSearchParams(Object.entries({ projectName: P, ...query }).map(([k, v]) => [k, String(v)]));
  const res = await call(t.app, 'GET', `/api/runs/list?${qs}`, t.key);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.runs as { name: string }[]).map((r) => r.name);
}

/** Sorts and the order listed: ties by id in the sort's direction, runs without a value last. */
const SORTS: [string, string, string[]][] = [
  ['last, for comparison', 'summary_metrics.loss', ['r1', 'r2', 'r4', 'r3', 'f', 'r5', 'r6']],
  ['min, ties by id, the fork by its lineage', 'summary_min.loss', ['r3', 'r1', 'r4', 'f', 'r2', 'r5', 'r6']],
  ['min descending', '-summary_min.loss', ['r2', 'f', 'r4', 'r1', 'r3', 'r6', 'r5']],
  ['max', 'summary_max.loss', ['r2', 'r4', 'r1', 'r3', 'f', 'r5', 'r6']],
  ['max descending (camelCase)', '-summaryMax.loss', ['f', 'r3', 'r1', 'r4', 'r2', 'r6', 'r5']],
  ['mean, ties by id', 'summary_mean.loss', ['r2', 'r4', 'r1', 'r3', 'f', 'r5', 'r6']],
  ['mean descending', '-summary_mean.loss', ['f', 'r3', 'r1', 'r4', 'r2', 'r6', 'r5']],
  ['mean with a + prefix', '+summaryMean.loss', ['r2', 'r4', 'r1', 'r3', 'f', 'r5', 'r6']],
  // The fork inherits r1's 0.1 and 0.9 (steps 0 and 1): a tie with r1, by id descending.
  ['a metric name with dots', '-summary_max.val/top.1', ['f', 'r1', 'r2', 'r6', 'r5', 'r4', 'r3']],
  ['an overflowed mean counts as none', 'summary_mean.huge', ['r2', 'r1', 'r3', 'r4', 'r5', 'r6', 'f']],
  ['beside a finite min', 'summary_min.huge', ['r1', 'f', 'r2', 'r3', 'r4', 'r5', 'r6']],
];

describe('GET /api/runs/list sorted by min, max and mean', () => {
  it.each(SORTS.map(([name, sort, expected]) => ({ name, sort, expected })))('$name', async ({ sort, expected }) => {
    expect(await names({ sort })).toEqual(expected);
  });

  it.each(['summary_min.loss', '-summary_max.loss', 'summary_mean.loss'])(
    'pages of 2 sorted by %s add up to the whole list',
    async (sort) => {
      const whole = await names({ sort });
      const paged: string[] = [];
      for (let offset = 0; offset < 8; offset += 2) paged.push(...(await names({ sort, limit: 2, offset })));
      expect(paged).toEqual(whole);
    },
  );

  it('sorts only the runs the filter keeps', async () => {
    expect(await names({ sort: '-summary_min.loss', search: 'r' })).toEqual(['r2', 'r4', 'r1', 'r3', 'r6', 'r5']);
  });
});

/** Filters on the same summaries and the names they match, in name order. */
const FILTERS: [string, unknown, string[]][] = [
  ['min $lte, the fork by its lineage', { 'summary_min.loss': { $lte: 1 } }, ['f', 'r1', 'r3', 'r4']],
  ['max $gt', { 'summary_max.loss': { $gt: 4 } }, ['f', 'r3']],
  ['mean equality (camelCase)', { 'summaryMean.loss': 2 }, ['r2', 'r4']],
  ['mean $in', { 'summary_mean.loss': { $in: [2.5, 5] } }, ['f', 'r1', 'r3']],
  ['mean $exists false: NaN-only and missing', { 'summary_mean.loss': { $exists: false } }, ['r5', 'r6']],
  ['min $ne includes runs without it', { 'summary_min.loss': { $ne: 1 } }, ['r2', 'r3', 'r5', 'r6']],
  ['an overflowed mean does not exist', { 'summary_mean.huge': { $exists: true } }, ['r2']],
  ['max of a name with dots', { 'summary_max.val/top.1': { $gte: 0.8 } }, ['f', 'r1']],
  ['last and min together', { 'summary_metrics.loss': { $gte: 3 }, 'summary_min.loss': { $lt: 1 } }, ['r3']],
];

describe('GET /api/runs/list filtered by min, max and mean', () => {
  it.each(FILTERS.map(([name, filter, expected]) => ({ name, filter, expected })))(
    '$name',
    async ({ filter, expected }) => {
      expect(await names({ filter: JSON.stringify(filter), sort: 'name' })).toEqual(expected);
    },
  );
});

describe('GET /api/runs/list refuses', () => {
  it.each([
    ['an unknown summary', { sort: 'summary_avg.loss' }, 'summary_mean'],
    ['a summary without a metric', { sort: '-summary_min.' }, 'summary_min'],
    ['a filter on a summary without a metric', { filter: '{"summary_max.":1}' }, 'summary_max'],
  ])('%s', async (_, query, word) => {
    const qs = new URLSearchParams({ projectName: P, ...query });
    const res = await call(t.app, 'GET', `/api/runs/list?${qs}`, t.key);
    expectError(res, 400, 'BAD_REQUEST');
    expect(res.body.error).toContain(word);
  });
});
