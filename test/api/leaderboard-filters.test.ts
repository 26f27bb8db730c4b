/**
 * GET /api/runs/leaderboard narrowed by run search's parameters (`filter`, `search`, `tags`,
 * `status`): every aggregation ranks exactly the matching runs of the whole ranking, forks by
 * their effective series, with the same 400s as GET /api/runs/list. Runs on SQLite and
 * (Vitest project `postgres`) PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGGREGATIONS, DIRECTIONS } from '../../src/domain/aggregation.js';
import type { Leaderboard } from '../../src/api/schemas/rankings.js';
import { createRun, expectError, setStatus } from '../helpers/run-api.js';
import { call, makeTestApp, type TestApp } from '../helpers/test-app.js';
import { getOk, ingestOk, metricLine, pyNdjson, qs } from '../helpers/ingest-api.js';

const PROJECT = 'lbf';
let t: TestApp;
const ids = new Map<string, number>();
const id = (name: string): number => ids.get(name)!;

/**
 * Project `lbf` of acme (loss by step; c1 is a fork of p2 at step 0, so its effective loss is 2, 0.5):
 *   p1 FAILED    tags a   loss 3, 1
 *   p2 COMPLETED tags b   loss 2, 5
 *   p3 FAILED    tags a   loss 4
 *   p4 FAILED    tags a   acc only (never ranked by loss)
 *   c1 FAILED    no tags  loss 0.5 at step 1
 * Project `lbf` of rival: x1 FAILED loss -100 (never seen by acme).
 */
async function seed(
  key: string,
  name: string,
  status: string,
  body: Record<string, unknown>,
  steps: Record<string, number>[],
  firstStep = 0,
): Promise<void> {
  const run = await createRun(t.app, key, { runName: name, projectName: PROJECT, ...body });
  ids.set(name, run.runId);
  const lines = steps.map((data, i) => metricLine(firstStep + i, data));
  await ingestOk(t.app, key, 'metrics', { runId: run.runId }, pyNdjson(lines));
  if (status !== 'RUNNING') await setStatus(t.app, key, run.runId, status);
}

beforeAll(async () => {
  t = await makeTestApp();
  await seed(t.key, 'p1', 'FAILED', { tags: ['a'], config: JSON.stringify({ lr: 0.1 }) }, [{ loss: 3 }, { loss: 1 }]);
  await seed(t.key, 'p2', 'COMPLETED', { tags: ['b'], config: JSON.stringify({ lr: 0.01 }) }, [
    { loss: 2 },
    { loss: 5 },
  ]);
  await seed(t.key, 'p3', 'FAILED', { tags: ['a'] }, [{ loss: 4 }]);
  await seed(t.key, 'p4', 'FAILED', { tags: ['a'] }, [{ acc: 0.5 }]);
  await seed(t.key, 'c1', 'FAILED', { forkRunId: id('p2'), forkStep: 0 }, [{ loss: 0.5 }], 1);
  await seed(t.otherKey, 'x1', 'FAILED', {}, [{ loss: -100 }]);
});
afterAll(async () => {
  await t.close();
});

const board = (params: Record<string, string | number | undefined>, key = t.key) =>
  call(t.app, 'GET', `/api/runs/leaderboard?${qs({ projectName: PROJECT, logName: 'loss', ...params })}`, key);

/** Names and values of a leaderboard answer, in rank order. */
async function ranked(params: Record<string, string | number | undefined>, key = t.key) {
  const url = `/api/runs/leaderboard?${qs({ projectName: PROJECT, logName: 'loss', limit: 100, ...params })}`;
  const answer = await getOk<Leaderboard>(t.app, key, url);
  return { names: answer.runs.map((r) => r.runName), answer };
}

describe('GET /api/runs/leaderboard with run filters', () => {
  it('ranks the runs that status=FAILED keeps, in the order and with the values of the whole ranking, for every aggregation', async () => {
    for (const aggregation of AGGREGATIONS) {
      for (const direction of DIRECTIONS) {
        const all = await ranked({ aggregation, direction });
        const failed = await ranked({ aggregation, direction, status: 'failed' });
        const label = `${aggregation} ${direction}`;
        const keep = new Set(['p1', 'p3', 'c1']);
        const want = all.answer.runs.filter((r) => keep.has(r.runName));
        expect(failed.names, label).toEqual(want.map((r) => r.runName));
        expect(
          failed.answer.runs.map((r) => r.value),
          label,
        ).toEqual(want.map((r) => r.value));
        expect(
          failed.answer.runs.map((r) => r.rank),
          label,
        ).toEqual([1, 2, 3]);
        expect(failed.answer.total, label).toBe(3);
        expect(failed.answer).toMatchObject({ projectName: PROJECT, logName: 'loss', aggregation, direction });
      }
    }
  });

  it('ranks a fork by its effective series when a filter keeps it', async () => {
    const forks = await ranked({ aggregation: 'MAX', filter: JSON.stringify({ forkedFromRunId: id('p2') }) });
    // c1's own points hold only 0.5: the 2 comes from its parent's step 0.
    expect(forks.answer.runs.map((r) => [r.runName, r.value])).toEqual([['c1', 2]]);
    expect(forks.answer.total).toBe(1);
    // A metric condition reads the fork's effective last value (0.5), not its parent's.
    const low = await ranked({ aggregation: 'AVG', filter: JSON.stringify({ 'summary_metrics.loss': { $lt: 1 } }) });
    expect(low.answer.runs.map((r) => [r.runName, r.value])).toEqual([['c1', 1.25]]);
    // A fork and unforked runs together, paged.
    const q = { aggregation: 'MIN', direction: 'ASC', status: 'FAILED' };
    expect((await ranked(q)).names).toEqual(['c1', 'p1', 'p3']);
    const second = await getOk<Leaderboard>(
      t.app,
      t.key,
      `/api/runs/leaderboard?${qs({ projectName: PROJECT, logName: 'loss', ...q, limit: 1, offset: 1 })}`,
    );
    expect(second.runs.map((r) => [r.rank, r.runName, r.value])).toEqual([[2, 'p1', 1]]);
    expect(second.total).toBe(3);
  });

  it('narrows by tags, name search and a config filter together', async () => {
    expect((await ranked({ tags: 'a' })).names).toEqual(['p1', 'p3']);
    expect((await ranked({ tags: 'a,b', search: 'P' })).names).toEqual(['p1', 'p3', 'p2']);
    const lr = await ranked({ filter: JSON.stringify({ 'config.lr': 0.01 }), aggregation: 'MAX', direction: 'DESC' });
    // c1 inherits p2's config (lr 0.01) when it is forked.
    expect(lr.answer.runs.map((r) => [r.runName, r.value])).toEqual([
      ['p2', 5],
      ['c1', 2],
    ]);
  });

  it('answers an empty ranking when nothing matches, and for an unknown project', async () => {
    for (const params of [
      { status: 'CANCELLED' },
      { filter: JSON.stringify({ name: 'nobody' }) },
      { status: 'FAILED', filter: JSON.stringify({ forkedFromRunId: id('p1') }) },
      { search: 'p4' }, // p4 matches but has no loss
    ]) {
      expect((await ranked(params)).answer, JSON.stringify(params)).toMatchObject({ runs: [], total: 0 });
    }
    expect(
      await getOk<Leaderboard>(
        t.app,
        t.key,
        `/api/runs/leaderboard?${qs({ projectName: 'nope', logName: 'loss', status: 'FAILED' })}`,
      ),
    ).toMatchObject({ runs: [], total: 0 });
    // A page past the end is empty but still counts the ranked runs.
    expect((await ranked({ status: 'FAILED', offset: 10 })).answer).toMatchObject({ runs: [], total: 3 });
  });

  it('refuses what GET /api/runs/list refuses, with the same code, even in an unknown project', async () => {
    const BAD: Record<string, string>[] = [
      { filter: '{not json' },
      { filter: JSON.stringify({ nope: 1 }) },
      { filter: JSON.stringify({ 'config.lr': { $regex: '(?=a)' } }) },
      { status: 'BOGUS' },
      { tags: Array.from({ length: 101 }, (_, i) => `t${i}`).join(',') },
    ];
    for (const params of BAD) {
      for (const projectName of [PROJECT, 'nope']) {
        const listed = await call(t.app, 'GET', `/api/runs/list?${qs({ projectName, ...params })}`, t.key);
        expectError(listed, 400);
        const res = await board({ ...params, projectName });
        expectError(res, 400, listed.body.code as string);
        expect(res.body.error).toBe(listed.body.error);
      }
    }
    expectError(await board({ filter: 'x'.repeat(20_001) }), 400);
  });

  it('keeps to the key’s organization', async () => {
    expect((await ranked({ status: 'FAILED' }, t.otherKey)).answer.runs.map((r) => [r.runName, r.value])).toEqual([
      ['x1', -100],
    ]);
    expect((await ranked({ status: 'FAILED' })).names).not.toContain('x1');
    const foreign = JSON.stringify({ forkedFromRunId: id('p2') });
    expect((await ranked({ filter: foreign }, t.otherKey)).answer).toMatchObject({ runs: [], total: 0 });
  });
});
