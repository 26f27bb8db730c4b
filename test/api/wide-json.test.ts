/**
 * Wide JSON values (hundreds of thousands of array elements, flat): configs, the model
 * graph and histograms are stored whole and read back, never a 500 from a recursion per
 * element and never mistaken for deep nesting.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createRun, getDetails } from '../helpers/run-api.js';
import { call, useTestApp } from '../helpers/test-app.js';
import { getOk, ingestOk } from '../helpers/ingest-api.js';
import type { DataLine } from '../../src/api/schemas/logs.js';
import type { RunRef } from '../../src/api/schemas/runs.js';

const t = useTestApp();
let run: RunRef;
beforeEach(async () => {
  run = await createRun(t.app, t.key, { runName: 'r', projectName: 'wide' });
});

const numbers = (n: number): number[] => Array.from({ length: n }, (_, i) => i % 1000);

describe('wide JSON values are stored whole', () => {
  it('a config update with an array of 200,000 elements is stored and read back', async () => {
    const config = { weights: numbers(200_000) };
    const res = await call(t.app, 'POST', '/api/runs/config/update', t.key, {
      runId: run.runId,
      config: JSON.stringify(config),
    });
    expect(res.status, JSON.stringify(res.body).slice(0, 200)).toBe(200);
    expect((await getDetails(t.app, t.key, run.runId)).config).toEqual(config);
  });

  it('runs/create with a config of 200,000 array elements creates the run with that config', async () => {
    const config = { layers: numbers(200_000) };
    const created = await createRun(t.app, t.key, {
      runName: 'w',
      projectName: 'wide',
      config: JSON.stringify(config),
    });
    expect((await getDetails(t.app, t.key, created.runId)).config).toEqual(config);
  });

  it('a model graph whose node has 200,000 edges is stored and read back', async () => {
    const graph = { format: 'torch', nodes: { fc: { edges: numbers(200_000) } } };
    const res = await call(t.app, 'POST', '/api/runs/modelGraph/create', t.key, { runId: run.runId, graph });
    expect(res.status, JSON.stringify(res.body).slice(0, 200)).toBe(200);
    const read = await getOk<{ graph: unknown }>(t.app, t.key, `/api/runs/modelGraph?runId=${run.runId}`);
    expect(read.graph).toEqual(graph);
  });

  it('a flat histogram of 300,000 values sent as an object on /ingest/data is stored', async () => {
    const histogram = { type: 'Histogram', freq: numbers(300_000), bins: { min: 0, max: 1, num: 300_000 } };
    const line = { time: 1, step: 0, data: histogram, dataType: 'HISTOGRAM', logName: 'weights/hist' };
    expect(await ingestOk(t.app, t.key, 'data', { runId: run.runId, projectName: 'wide' }, JSON.stringify(line))).toBe(
      1,
    );
    const { data } = await getOk<{ data: DataLine[] }>(t.app, t.key, `/api/runs/data?runId=${run.runId}`);
    expect(data).toHaveLength(1);
    expect(JSON.parse(data[0]!.data)).toEqual(histogram);
  });
});
