import { describe, expect, it } from 'vitest';
import { createRun, expectError, getDetails } from '../helpers/run-api.js';
import { call, useTestApp } from '../helpers/test-app.js';
import {
  getMetrics,
  getOk,
  getStatistics,
  ingestOk,
  ingestSeries,
  metricLine,
  populationStats,
  pyNdjson,
  qs,
} from '../helpers/ingest-api.js';
import type { Compare, Leaderboard } from '../../src/api/schemas/rankings.js';
import type { RunRef } from '../../src/api/schemas/runs.js';

const PROJECT = 'forks';
const t = useTestApp();

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const parentLoss = (s: number): number => 100 - s;
const parentAcc = (s: number): number => s / 100;
const childLoss = (s: number): number => s;

/** Parent with loss/acc at 0..100; child forked at 50 with its own loss at 51..80. */
async function family(): Promise<{ parent: RunRef; child: RunRef }> {
  const parent = await createRun(t.app, t.key, {
    runName: 'parent',
    projectName: PROJECT,
    config: JSON.stringify({ lr: 0.1, opt: { name: 'adam', beta: 0.9 } }),
    tags: ['base'],
  });
  await ingestSeries(t.app, t.key, { runId: parent.runId }, 0, 100, { loss: parentLoss, acc: parentAcc });
  const child = await createRun(t.app, t.key, {
    runName: 'child',
    projectName: PROJECT,
    forkRunId: parent.runId,
    forkStep: 50,
    config: JSON.stringify({ opt: { beta: 0.99 } }),
  });
  await ingestSeries(t.app, t.key, { runId: child.runId }, 51, 80, { loss: childLoss });
  return { parent, child };
}

/** The child's effective loss values by step 0..80. */
const childEffectiveLoss = (): number[] => range(0, 80).map((s) => (s <= 50 ? parentLoss(s) : childLoss(s)));

describe('Forks: the child sees its lineage', () => {
  it('answers the fork in the create response and in the run details', async () => {
    const { parent, child } = await family();
    expect(child).toMatchObject({ forkedFromRunId: parent.runId, forkStep: 50, resumed: false });
    expect(await getDetails(t.app, t.key, child.runId)).toMatchObject({
      forkedFromRunId: parent.runId,
      forkStep: 50,
      config: { lr: 0.1, opt: { name: 'adam', beta: 0.99 } },
      tags: [],
    });
  });

  it('reads the parent steps 0..50 followed by its own 51..80 through the metrics endpoint', async () => {
    const { child } = await family();
    const loss = await getMetrics(t.app, t.key, { runId: child.runId, logName: 'loss' });
    expect(loss.map((p) => p.step)).toEqual(range(0, 80));
    expect(loss.map((p) => p.value)).toEqual(childEffectiveLoss());
    const acc = await getMetrics(t.app, t.key, { runId: child.runId, logName: 'acc' });
    expect(acc.map((p) => p.step)).toEqual(range(0, 50));
  });

  it('applies step filters and limits to the effective series', async () => {
    const { child } = await family();
    const around = await getMetrics(t.app, t.key, { runId: child.runId, logName: 'loss', stepMin: 48, stepMax: 53 });
    expect(around.map((p) => [p.step, p.value])).toEqual([
      [48, 52],
      [49, 51],
      [50, 50],
      [51, 51],
      [52, 52],
      [53, 53],
    ]);
    const sampled = await getMetrics(t.app, t.key, { runId: child.runId, logName: 'loss', limit: 10 });
    expect(sampled.length).toBeLessThanOrEqual(10);
    expect(sampled[0]?.step).toBe(0);
    expect(sampled.at(-1)?.step).toBe(80);
  });

  it('counts the effective points before sampling in total, a re-logged inherited step once', async () => {
    const { child } = await family();
    const total = async (params: Record<string, string | number>) =>
      (await getOk<{ total: number }>(t.app, t.key, `/api/runs/metrics?${qs({ runId: child.runId, ...params })}`))
        .total;
    expect(await total({ logName: 'loss', limit: 10 })).toBe(81);
    expect(await total({ logName: 'loss', stepMin: 45, stepMax: 60, limit: 3 })).toBe(16);
    await ingestOk(t.app, t.key, 'metrics', { runId: child.runId }, pyNdjson([metricLine(10, { loss: -5 })]));
    expect(await total({ logName: 'loss', limit: 10 })).toBe(81);
    expect(await total({ limit: 10 })).toBe(81 + 51);
  });

  it('leaves the parent series untouched', async () => {
    const { parent } = await family();
    const loss = await getMetrics(t.app, t.key, { runId: parent.runId, logName: 'loss' });
    expect(loss.map((p) => p.value)).toEqual(range(0, 100).map(parentLoss));
    expect((await getStatistics(t.app, t.key, { runId: parent.runId, logName: 'loss' })).metrics[0]).toMatchObject({
      count: 101,
      last: { step: 100, value: 0 },
    });
  });

  it('computes statistics over the effective series: count 81, last step 80', async () => {
    const { child } = await family();
    const stats = await getStatistics(t.app, t.key, { runId: child.runId });
    const { mean, stddev } = populationStats(childEffectiveLoss());
    const loss = stats.metrics.find((m) => m.logName === 'loss');
    expect(loss).toMatchObject({ count: 81, min: 50, max: 100, last: { step: 80, value: 80 } });
    expect(loss?.mean).toBeCloseTo(mean, 9);
    expect(loss?.stddev).toBeCloseTo(stddev, 9);
    expect(stats.metrics.find((m) => m.logName === 'acc')).toMatchObject({
      count: 51,
      min: 0,
      max: 0.5,
      last: { step: 50, value: 0.5 },
    });
  });

  it('lets a child point at a step up to forkStep replace the inherited one', async () => {
    const { parent, child } = await family();
    await ingestOk(t.app, t.key, 'metrics', { runId: child.runId }, pyNdjson([metricLine(10, { loss: -5 })]));
    const loss = await getMetrics(t.app, t.key, { runId: child.runId, logName: 'loss', stepMin: 9, stepMax: 11 });
    expect(loss.map((p) => p.value)).toEqual([parentLoss(9), -5, parentLoss(11)]);
    const stats = await getStatistics(t.app, t.key, { runId: child.runId, logName: 'loss' });
    expect(stats.metrics[0]).toMatchObject({ count: 81, min: -5, last: { step: 80, value: 80 } });
    const parentPoint = await getMetrics(t.app, t.key, {
      runId: parent.runId,
      logName: 'loss',
      stepMin: 10,
      stepMax: 10,
    });
    expect(parentPoint.map((p) => p.value)).toEqual([parentLoss(10)]);
  });

  it('ranks the child in the leaderboard by its effective summary', async () => {
    const { parent, child } = await family();
    const plain = await createRun(t.app, t.key, { runName: 'plain', projectName: PROJECT });
    await ingestSeries(t.app, t.key, { runId: plain.runId }, 0, 10, { loss: () => 60 });
    const board = async (logName: string, aggregation: string, direction = 'ASC') =>
      getOk<Leaderboard>(
        t.app,
        t.key,
        `/api/runs/leaderboard?${qs({ projectName: PROJECT, logName, aggregation, direction })}`,
      );

    const last = await board('loss', 'LAST');
    expect(last.runs.map((r) => [r.runId, r.value])).toEqual([
      [parent.runId, 0],
      [plain.runId, 60],
      [child.runId, 80],
    ]);
    expect(last.total).toBe(3);
    const min = await board('loss', 'MIN', 'DESC');
    expect(min.runs.map((r) => [r.runId, r.value])).toEqual([
      [plain.runId, 60],
      [child.runId, 50],
      [parent.runId, 0],
    ]);
    const avg = await board('loss', 'AVG');
    expect(avg.runs.find((r) => r.runId === child.runId)?.value).toBeCloseTo(
      populationStats(childEffectiveLoss()).mean,
      9,
    );
    // The child logged no acc of its own: it is ranked with the inherited points alone.
    const acc = await board('acc', 'LAST', 'DESC');
    expect(acc.runs.map((r) => [r.runId, r.value])).toEqual([
      [parent.runId, 1],
      [child.runId, 0.5],
    ]);
    expect(acc.total).toBe(2);
  });

  it('compares the child with its effective stats', async () => {
    const { parent, child } = await family();
    const res = await getOk<Compare>(
      t.app,
      t.key,
      `/api/runs/compare?${qs({ runIds: `${child.runId},${parent.runId}`, projectName: PROJECT, logName: 'loss' })}`,
    );
    expect(res.runs.map((r) => r.runId)).toEqual([child.runId, parent.runId]);
    expect(res.runs[0]?.stats).toMatchObject({ count: 81, min: 50, max: 100, final: 80 });
    expect(res.runs[0]?.stats?.mean).toBeCloseTo(populationStats(childEffectiveLoss()).mean, 9);
    expect(res.runs[1]?.stats).toEqual({ count: 101, min: 0, max: 100, mean: 50, final: 0 });
    const acc = await getOk<Compare>(
      t.app,
      t.key,
      `/api/runs/compare?${qs({ runIds: String(child.runId), projectName: PROJECT, logName: 'acc' })}`,
    );
    expect(acc.runs[0]?.stats).toMatchObject({ count: 51, final: 0.5 });
  });

  it('lists inherited metric names when scoped to the child run', async () => {
    const { parent, child } = await family();
    await ingestOk(t.app, t.key, 'metrics', { runId: child.runId }, pyNdjson([metricLine(81, { child_only: 1 })]));
    const names = async (runIds: string) =>
      (
        await getOk<{ metricNames: string[] }>(
          t.app,
          t.key,
          `/api/runs/metric-names?${qs({ projectName: PROJECT, runIds })}`,
        )
      ).metricNames;
    expect(await names(String(child.runId))).toEqual(['acc', 'child_only', 'loss']);
    expect(await names(String(parent.runId))).toEqual(['acc', 'loss']);
  });
});

/** POST /api/runs/create of a run `c` of the project with these fork fields (or others), with the test's key. */
const createFork = (fields: Record<string, unknown>) =>
  call(t.app, 'POST', '/api/runs/create', t.key, { runName: 'c', projectName: PROJECT, ...fields });

describe('Forks: creation rules', () => {
  it('refuses a forkStep beyond the parent highest step with 400, and accepts the highest step itself', async () => {
    const parent = await createRun(t.app, t.key, { runName: 'p', projectName: PROJECT });
    await ingestSeries(t.app, t.key, { runId: parent.runId }, 0, 100, { loss: parentLoss });
    expectError(await createFork({ forkRunId: parent.runId, forkStep: 101 }), 400);
    const ok = await createRun(t.app, t.key, {
      runName: 'c',
      projectName: PROJECT,
      forkRunId: parent.runId,
      forkStep: 100,
    });
    expect((await getStatistics(t.app, t.key, { runId: ok.runId })).metrics[0]).toMatchObject({
      count: 101,
      last: { step: 100, value: 0 },
    });
  });

  it('takes the highest step over every metric of the parent', async () => {
    const parent = await createRun(t.app, t.key, { runName: 'p', projectName: PROJECT });
    await ingestSeries(t.app, t.key, { runId: parent.runId }, 0, 10, { a: (s) => s });
    await ingestSeries(t.app, t.key, { runId: parent.runId }, 0, 30, { b: (s) => s });
    expect((await createFork({ forkRunId: parent.runId, forkStep: 30 })).status).toBe(200);
    expectError(await createFork({ forkRunId: parent.runId, forkStep: 31 }), 400);
  });

  it('accepts any forkStep of at least 0 when the parent has no metrics', async () => {
    const parent = await createRun(t.app, t.key, { runName: 'p', projectName: PROJECT });
    const child = await createRun(t.app, t.key, {
      runName: 'c',
      projectName: PROJECT,
      forkRunId: parent.runId,
      forkStep: 1_000,
    });
    expect(child.forkStep).toBe(1_000);
    expect(await getMetrics(t.app, t.key, { runId: child.runId })).toEqual([]);
  });

  const refusals: {
    name: string;
    body: (parentId: number) => Record<string, unknown>;
    status: number;
    /** The parent is a run of the other organization. */
    foreignParent?: boolean;
  }[] = [
    { name: 'a negative forkStep', body: (p) => ({ forkRunId: p, forkStep: -1 }), status: 400 },
    { name: 'forkRunId without forkStep', body: (p) => ({ forkRunId: p }), status: 400 },
    { name: 'forkStep without forkRunId', body: () => ({ forkStep: 3 }), status: 400 },
    { name: 'an unknown parent', body: () => ({ forkRunId: 987_654, forkStep: 1 }), status: 404 },
    {
      name: 'a parent in another project',
      body: (p) => ({ forkRunId: p, forkStep: 1, projectName: 'elsewhere' }),
      status: 404,
    },
    {
      name: 'a parent of another organization',
      body: (p) => ({ forkRunId: p, forkStep: 1 }),
      status: 404,
      foreignParent: true,
    },
  ];
  for (const r of refusals) {
    it(`answers ${r.status} for ${r.name}`, async () => {
      const owner = r.foreignParent ? t.otherKey : t.key;
      const parent = await createRun(t.app, owner, { runName: 'p', projectName: PROJECT });
      await ingestSeries(t.app, owner, { runId: parent.runId }, 0, 5, { loss: parentLoss });
      expectError(await createFork(r.body(parent.runId)), r.status);
    });
  }
});

describe('Forks: three generations', () => {
  it('resolves the grandchild series through both forks', async () => {
    const g0 = await createRun(t.app, t.key, { runName: 'g0', projectName: PROJECT });
    await ingestSeries(t.app, t.key, { runId: g0.runId }, 0, 100, { loss: (s) => 1_000 + s, base: (s) => s });
    const g1 = await createRun(t.app, t.key, {
      runName: 'g1',
      projectName: PROJECT,
      forkRunId: g0.runId,
      forkStep: 60,
    });
    await ingestSeries(t.app, t.key, { runId: g1.runId }, 61, 90, { loss: (s) => 2_000 + s });
    // g1's effective highest step is 90, although g0 reaches 100.
    expectError(await createFork({ runName: 'g2', forkRunId: g1.runId, forkStep: 95 }), 400);
    const g2 = await createRun(t.app, t.key, {
      runName: 'g2',
      projectName: PROJECT,
      forkRunId: g1.runId,
      forkStep: 75,
    });
    await ingestSeries(t.app, t.key, { runId: g2.runId }, 76, 85, { loss: (s) => 3_000 + s });

    const expected = range(0, 85).map((s) => (s <= 60 ? 1_000 + s : s <= 75 ? 2_000 + s : 3_000 + s));
    const loss = await getMetrics(t.app, t.key, { runId: g2.runId, logName: 'loss' });
    expect(loss.map((p) => p.step)).toEqual(range(0, 85));
    expect(loss.map((p) => p.value)).toEqual(expected);
    expect((await getMetrics(t.app, t.key, { runId: g2.runId, logName: 'base' })).map((p) => p.step)).toEqual(
      range(0, 60),
    );

    const stats = await getStatistics(t.app, t.key, { runId: g2.runId, logName: 'loss' });
    expect(stats.metrics[0]).toMatchObject({ count: 86, min: 1_000, max: 3_085, last: { step: 85, value: 3_085 } });
    expect(stats.metrics[0]?.mean).toBeCloseTo(populationStats(expected).mean, 9);

    const board = await getOk<Leaderboard>(
      t.app,
      t.key,
      `/api/runs/leaderboard?${qs({ projectName: PROJECT, logName: 'base', aggregation: 'MAX', direction: 'DESC' })}`,
    );
    expect(board.runs.map((r) => [r.runId, r.value])).toEqual([
      [g0.runId, 100],
      [g1.runId, 60],
      [g2.runId, 60],
    ]);
    const names = await getOk<{ metricNames: string[] }>(
      t.app,
      t.key,
      `/api/runs/metric-names?${qs({ projectName: PROJECT, runIds: String(g2.runId) })}`,
    );
    expect(names.metricNames).toEqual(['base', 'loss']);
  });
});
