/**
 * GET /api/runs/series: one metric of several runs as columns, sampled as GET /api/runs/metrics
 * samples each run's series (the same points), forks through their lineage, non-finite values
 * as null with their kind in `flags`, the whole answer under STEPWISE_READ_MAX_POINTS, and
 * every run id in the caller's organization or a 404.
 */
import { describe, expect, it } from 'vitest';
import { createRun, expectError, itScenarios } from '../helpers/run-api.js';
import { call, makeTestApp, useTestApp } from '../helpers/test-app.js';
import { getMetrics, getOk, ingestOk, ingestSeries, metricLine, pyNdjson, qs } from '../helpers/ingest-api.js';
import type { MetricPoint, SeriesBatch } from '../../src/api/schemas/metrics.js';
import type { App } from '../../src/api/app-types.js';

const PROJECT = 'series';
const t = useTestApp();

const getSeries = (app: App, key: string, params: Record<string, string | number | undefined>) =>
  getOk<SeriesBatch>(app, key, `/api/runs/series?${qs(params)}`);

/** The rows of GET /api/runs/metrics as the columns GET /api/runs/series answers. */
function columns(points: readonly MetricPoint[]) {
  const flags: Record<string, string> = {};
  points.forEach((p, i) => {
    if (p.valueFlag !== undefined) flags[i] = p.valueFlag;
  });
  return {
    steps: points.map((p) => p.step),
    times: points.map((p) => Date.parse(p.time)),
    values: points.map((p) => p.value),
    ...(Object.keys(flags).length > 0 ? { flags } : {}),
  };
}

/** A run of `steps` points of loss (a wave with spikes, so sampling keeps extremes). */
async function runWithLoss(name: string, steps: number, shift = 0): Promise<number> {
  const run = await createRun(t.app, t.key, { runName: name, projectName: PROJECT });
  const wave = (s: number) => Math.sin((s + shift) / 7) + (s % 97 === 0 ? 5 : 0);
  await ingestSeries(t.app, t.key, { runId: run.runId }, 0, steps - 1, { 'train/loss': wave, 'train/acc': (s) => s });
  return run.runId;
}

describe('GET /api/runs/series answers what GET /api/runs/metrics answers, per run', () => {
  it('samples each run to the same points, in the asked order, with true totals', async () => {
    const a = await runWithLoss('a', 3000);
    const b = await runWithLoss('b', 500, 3);
    const empty = (await createRun(t.app, t.key, { runName: 'none', projectName: PROJECT })).runId;
    for (const range of [{}, { stepMin: 100, stepMax: 2200 }, { stepMin: 400 }]) {
      const batch = await getSeries(t.app, t.key, {
        runIds: `${b},${a},${empty}`,
        logName: 'train/loss',
        limit: 300,
        ...range,
      });
      expect(batch.logName).toBe('train/loss');
      expect(batch.series.map((s) => s.runId)).toEqual([b, a, empty]);
      for (const s of batch.series) {
        const params = { runId: s.runId, logName: 'train/loss', limit: 300, ...range };
        const rows = await getOk<{ metrics: MetricPoint[]; total: number }>(
          t.app,
          t.key,
          `/api/runs/metrics?${qs(params)}`,
        );
        const cols = columns(rows.metrics);
        expect(s).toEqual({ runId: s.runId, logGroup: 'train', total: rows.total, sampled: rows.total > 300, ...cols });
      }
    }
  });

  it('reads a fork with its lineage, like the per-run read', async () => {
    const parent = await runWithLoss('parent', 200);
    const child = await createRun(t.app, t.key, {
      runName: 'child',
      projectName: PROJECT,
      forkRunId: parent,
      forkStep: 120,
    });
    await ingestSeries(t.app, t.key, { runId: child.runId }, 100, 150, { 'train/loss': (s) => -s });
    const batch = await getSeries(t.app, t.key, { runIds: `${parent},${child.runId}`, logName: 'train/loss' });
    const forked = batch.series[1]!;
    expect(forked.total).toBe(151);
    expect(forked.steps).toEqual(Array.from({ length: 151 }, (_, i) => i));
    expect(forked.values.slice(100)).toEqual(Array.from({ length: 51 }, (_, i) => -(100 + i)));
    const rows = await getMetrics(t.app, t.key, { runId: child.runId, logName: 'train/loss' });
    expect(forked).toMatchObject(columns(rows));
  });

  it('answers non-finite values as null with their kind in flags, by index', async () => {
    const run = await createRun(t.app, t.key, { runName: 'nan', projectName: PROJECT });
    const body = pyNdjson([
      metricLine(0, { loss: 1 }),
      metricLine(1, { loss: NaN }),
      metricLine(2, { loss: Infinity }),
      metricLine(3, { loss: -Infinity }),
      metricLine(4, { loss: 2 }),
    ]);
    await ingestOk(t.app, t.key, 'metrics', { runId: run.runId }, body);
    const batch = await getSeries(t.app, t.key, { runIds: String(run.runId), logName: 'loss' });
    expect(batch.series[0]).toEqual({
      runId: run.runId,
      logGroup: '',
      total: 5,
      sampled: false,
      steps: [0, 1, 2, 3, 4],
      times: [0, 1, 2, 3, 4].map((s) => 1_700_000_000_000 + s),
      values: [1, null, null, null, 2],
      flags: { 1: 'NaN', 2: 'Infinity', 3: '-Infinity' },
    });
    const rows = await getMetrics(t.app, t.key, { runId: run.runId, logName: 'loss' });
    expect(batch.series[0]).toMatchObject(columns(rows));
  });
});

describe('GET /api/runs/series refuses', () => {
  let mine = 0;
  let theirs = 0;
  const url =
    (runIds: () => string, extra = '') =>
    () =>
      `/api/runs/series?logName=loss&runIds=${runIds()}${extra}`;
  itScenarios(
    t,
    [
      {
        name: 'an unknown run id (404)',
        method: 'GET',
        url: url(() => `${mine},987654321`),
        status: 404,
        code: 'NOT_FOUND',
      },
      {
        name: "another organization's run among its own (404)",
        method: 'GET',
        url: url(() => `${mine},${theirs}`),
        status: 404,
        code: 'NOT_FOUND',
      },
      {
        name: 'a run of another project when projectName is given (404)',
        method: 'GET',
        url: url(() => `${mine}`, '&projectName=elsewhere'),
        status: 404,
        code: 'NOT_FOUND',
      },
      {
        name: 'more than 100 run ids (400)',
        method: 'GET',
        url: url(() => Array.from({ length: 101 }, (_, i) => i + 1).join(',')),
        status: 400,
      },
      { name: 'a run id that is not an integer (400)', method: 'GET', url: url(() => `${mine},x`), status: 400 },
      {
        name: 'stepMin above stepMax (400)',
        method: 'GET',
        url: url(() => `${mine}`, '&stepMin=5&stepMax=4'),
        status: 400,
      },
      { name: 'no logName (400)', method: 'GET', url: () => `/api/runs/series?runIds=${mine}`, status: 400 },
      { name: 'limit above 10,000 (400)', method: 'GET', url: url(() => `${mine}`, '&limit=10001'), status: 400 },
    ],
    {
      before: async () => {
        mine = (await createRun(t.app, t.key, { runName: 'mine', projectName: PROJECT })).runId;
        theirs = (await createRun(t.app, t.otherKey, { runName: 'theirs', projectName: PROJECT })).runId;
        await ingestSeries(t.app, t.otherKey, { runId: theirs }, 0, 9, { loss: (s) => s });
      },
    },
  );

  it("never answers another organization's points, even alone", async () => {
    const theirs = (await createRun(t.app, t.otherKey, { runName: 'theirs', projectName: PROJECT })).runId;
    await ingestSeries(t.app, t.otherKey, { runId: theirs }, 0, 9, { loss: (s) => s });
    expectError(await call(t.app, 'GET', `/api/runs/series?logName=loss&runIds=${theirs}`, t.key), 404, 'NOT_FOUND');
  });
});

describe('STEPWISE_READ_MAX_POINTS bounds the whole answer', () => {
  it('counts min(limit, points in range) over all runs before sending', async () => {
    const b = await makeTestApp({ STEPWISE_READ_MAX_POINTS: '250' });
    try {
      const ids: number[] = [];
      for (let i = 0; i < 3; i++) {
        const run = await createRun(b.app, b.key, { runName: `r${i}`, projectName: PROJECT });
        await ingestSeries(b.app, b.key, { runId: run.runId }, 0, 99, { loss: (s) => s });
        ids.push(run.runId);
      }
      const ask = (runIds: number[], extra: Record<string, number> = {}) =>
        call(b.app, 'GET', `/api/runs/series?${qs({ runIds: runIds.join(','), logName: 'loss', ...extra })}`, b.key);
      const tooMany = await ask(ids);
      expectError(tooMany, 400, 'RESULT_TOO_LARGE');
      expect(tooMany.body.error).toContain('250');
      expect((await ask(ids.slice(0, 2))).status).toBe(200);
      const sampled = await ask(ids, { limit: 80 });
      expect(sampled.status).toBe(200);
      const batch = sampled.body as unknown as SeriesBatch;
      expect(batch.series.map((s) => [s.total, s.sampled, s.steps.length <= 80])).toEqual([
        [100, true, true],
        [100, true, true],
        [100, true, true],
      ]);
      expect((await ask(ids, { stepMin: 20 })).status).toBe(200);
    } finally {
      await b.close();
    }
  });
});
