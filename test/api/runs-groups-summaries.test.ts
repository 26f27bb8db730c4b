/**
 * The `summaries` parameter of GET /api/runs/groups: for each of last, min, max and mean
 * asked, each group's `summary`/`summaryMin`/`summaryMax`/`summaryMean` equals a brute-force
 * n/mean/std/min/max over its runs' `summary` of GET /api/runs/list (forks by their lineage,
 * runs with only non-finite points left out); the byte bound counts every summary; bad lists
 * are 400s. Runs on SQLite and (Vitest project `postgres`) PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GroupSummary, RunGroups } from '../../src/api/schemas/groups.js';
import type { RunList } from '../../src/api/schemas/runs.js';
import { prng } from '../../src/domain/prng.js';
import { getOk, ingestOk, metricLine, pyNdjson, qs } from '../helpers/ingest-api.js';
import { createRun, expectError, itScenarios, type Scenario } from '../helpers/run-api.js';
import { call, makeTestApp, type TestApp } from '../helpers/test-app.js';

const PROJECT = 'sums';
const AGGS = ['last', 'min', 'max', 'mean'] as const;
const FIELD = { last: 'summary', min: 'summaryMin', max: 'summaryMax', mean: 'summaryMean' } as const;
let t: TestApp;
const rand = prng(4711);

/** 12 runs in 3 lr groups, random points (some NaN or Infinity, one run all NaN, one none), and 2 forks. */
beforeAll(async () => {
  t = await makeTestApp();
  const made: number[] = [];
  for (let i = 0; i < 12; i++) {
    const lr = [0.1, 0.01, 0.001][i % 3]!;
    const ref = await createRun(t.app, t.key, {
      runName: `r${i}`,
      projectName: PROJECT,
      config: JSON.stringify({ lr }),
    });
    made.push(ref.runId);
    if (i === 11) continue; // no points at all
    const lines = Array.from({ length: 20 }, (_, step) => {
      const r = rand();
      const v = i === 10 ? NaN : r < 0.1 ? NaN : r < 0.15 ? Infinity : (rand() - 0.5) * 100 + i;
      return metricLine(step, { loss: v, acc: rand() });
    });
    await ingestOk(t.app, t.key, 'metrics', { runId: ref.runId }, pyNdjson(lines));
  }
  for (const [k, parent] of [made[0]!, made[4]!].entries()) {
    const fork = await createRun(t.app, t.key, {
      runName: `f${k}`,
      projectName: PROJECT,
      forkRunId: parent,
      forkStep: 9,
    });
    const lines = Array.from({ length: 5 }, (_, j) => metricLine(10 + j, { loss: -200 * (k + 1) + j, acc: 2 + j }));
    await ingestOk(t.app, t.key, 'metrics', { runId: fork.runId }, pyNdjson(lines));
  }
});
afterAll(async () => {
  await t?.close();
});

/** n, mean, sample std, min, max of values, computed plainly. */
function brute(values: number[]): GroupSummary {
  const n = values.length;
  if (n === 0) return { n, mean: null, std: null, min: null, max: null };
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const std = n < 2 ? null : Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1));
  return { n, mean, std, min: Math.min(...values), max: Math.max(...values) };
}

function expectClose(actual: GroupSummary | undefined, expected: GroupSummary, label: string): void {
  expect(actual, label).toBeDefined();
  expect(actual!.n, label).toBe(expected.n);
  for (const k of ['mean', 'std', 'min', 'max'] as const) {
    const [a, e] = [actual![k], expected[k]];
    if (e === null) expect(a, `${label} ${k}`).toBeNull();
    else expect(Math.abs(a! - e), `${label} ${k}: ${a} vs ${e}`).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(e)));
  }
}

describe('GET /api/runs/groups?summaries=', () => {
  it("summarises each run's last, min, max and mean as the list's summary gives them, forks by lineage", async () => {
    const listUrl = `/api/runs/list?${qs({ projectName: PROJECT, metrics: 'loss,acc', limit: 200 })}`;
    const list = await getOk<RunList>(t.app, t.key, listUrl);
    expect(list.runs).toHaveLength(14);
    const byId = new Map(list.runs.map((r) => [r.id, r]));
    const url = `/api/runs/groups?${qs({ projectName: PROJECT, groupBy: 'config.lr', metrics: 'loss,acc', summaries: 'mean,min,last,max' })}`;
    const answer = await getOk<RunGroups>(t.app, t.key, url);
    expect(answer.groups.map((g) => [g.key['config.lr'], g.runCount])).toEqual([
      [0.001, 4],
      [0.01, 5],
      [0.1, 5],
    ]);
    for (const g of answer.groups) {
      for (const agg of AGGS) {
        for (const metric of ['loss', 'acc']) {
          const values = g.runIds.flatMap((id) => {
            const v = byId.get(id)!.summary?.[metric]?.[agg];
            return v === null || v === undefined ? [] : [v];
          });
          expectClose(g[FIELD[agg]]?.[metric], brute(values), `${JSON.stringify(g.key)} ${agg} ${metric}`);
        }
      }
    }
    // The forks' own points (-200, -400) are their minimums and pull their group's min down.
    expect(answer.groups[2]!.summaryMin!.loss!.min).toBe(-200);
    expect(answer.groups[1]!.summaryMin!.loss!.min).toBe(-400);
  });

  it('answers only summary by default, and only the summaries asked for', async () => {
    const base = { projectName: PROJECT, groupBy: 'config.lr', metrics: 'loss' };
    const plain = await getOk<RunGroups>(t.app, t.key, `/api/runs/groups?${qs(base)}`);
    expect(Object.keys(plain.groups[0]!).sort()).toEqual(['key', 'runCount', 'runIds', 'summary']);
    const min = await getOk<RunGroups>(t.app, t.key, `/api/runs/groups?${qs({ ...base, summaries: 'min' })}`);
    expect(Object.keys(min.groups[0]!).sort()).toEqual(['key', 'runCount', 'runIds', 'summaryMin']);
    const none = await getOk<RunGroups>(
      t.app,
      t.key,
      `/api/runs/groups?${qs({ projectName: PROJECT, groupBy: 'config.lr', summaries: 'max' })}`,
    );
    expect(Object.keys(none.groups[0]!).sort()).toEqual(['key', 'runCount', 'runIds']);
  });

  it('counts every summary asked for in the byte bound', async () => {
    const small = await makeTestApp({ STEPWISE_READ_MAX_BYTES: '1500' });
    try {
      await createRun(small.app, small.key, { runName: 'a', projectName: 'b', config: JSON.stringify({ k: 1 }) });
      const base = { projectName: 'b', groupBy: 'config.k', metrics: 'm1,m2,m3' };
      const one = await call(small.app, 'GET', `/api/runs/groups?${qs(base)}`, small.key);
      expect(one.status, JSON.stringify(one.body)).toBe(200);
      const all = await call(
        small.app,
        'GET',
        `/api/runs/groups?${qs({ ...base, summaries: 'last,min,max,mean' })}`,
        small.key,
      );
      expectError(all, 400, 'RESULT_TOO_LARGE');
    } finally {
      await small.close();
    }
  });

  const bad = (name: string, summaries: string): Scenario => ({
    name,
    method: 'GET',
    url: `/api/runs/groups?${qs({ projectName: PROJECT, groupBy: 'config.lr', metrics: 'loss', summaries })}`,
    status: 400,
    code: 'BAD_REQUEST',
  });
  itScenarios(
    () => t,
    [bad('refuses an unknown summary', 'last,median'), bad('refuses an empty list of summaries', ' , ')],
  );
});
