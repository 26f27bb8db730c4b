/**
 * System metrics over HTTP in the pluto client's request shape (docs/api.md
 * §4.2): the client sends every `sys/*` sample at step 0, one NDJSON line per sample
 * time. Each sample is kept, a re-sent one stored once, reads ordered by step then time;
 * other metrics keep one point per step.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRun } from '../helpers/run-api.js';
import { makeTestApp, type TestApp } from '../helpers/test-app.js';
import { getMetrics, getStatistics, ingestOk, metricLine, pyNdjson, type PyValue } from '../helpers/ingest-api.js';
import type { RunRef } from '../../src/api/schemas/runs.js';

let t: TestApp;
let run: RunRef;
beforeEach(async () => {
  t = await makeTestApp();
  run = await createRun(t.app, t.key, { runName: 'r', projectName: 'vision' });
});
afterEach(async () => {
  await t.close();
});

const target = () => ({ runId: run.runId, projectName: 'vision' });
const T0 = 1_700_000_000_000;

/** Sample i of the client's system monitor: one line at step 0, 5 s apart. */
const sampleLine = (i: number): PyValue =>
  metricLine(0, { 'sys/cpu.percentage': (i * 13) % 97, 'sys/memory.percentage': 40 + i / 10 }, T0 + 5_000 * i);

/** Sends samples [from, to) as the client does, a few lines per request. */
async function sendSamples(from: number, to: number): Promise<void> {
  for (let i = from; i < to; i += 3) {
    const lines: PyValue[] = [];
    for (let k = i; k < Math.min(to, i + 3); k++) lines.push(sampleLine(k));
    await ingestOk(t.app, t.key, 'metrics', target(), pyNdjson(lines));
  }
}

describe('POST /ingest/metrics: sys/ samples at step 0', () => {
  it('keeps every sample in time order with statistics over all of them', async () => {
    await sendSamples(0, 200);
    const cpu = await getMetrics(t.app, t.key, { runId: run.runId, logName: 'sys/cpu.percentage', limit: 10_000 });
    expect(cpu).toHaveLength(200);
    expect(cpu.map((p) => p.step)).toEqual(new Array(200).fill(0));
    expect(cpu.map((p) => p.time)).toEqual([...Array(200).keys()].map((i) => new Date(T0 + 5_000 * i).toISOString()));
    expect(cpu.map((p) => p.value)).toEqual([...Array(200).keys()].map((i) => (i * 13) % 97));
    expect(cpu[0]?.logGroup).toBe('sys');
    const stats = await getStatistics(t.app, t.key, { runId: run.runId, logGroup: 'sys' });
    expect(stats.metrics.map((m) => [m.logName, m.count, m.last])).toEqual([
      ['sys/cpu.percentage', 200, { step: 0, value: (199 * 13) % 97 }],
      ['sys/memory.percentage', 200, { step: 0, value: 40 + 199 / 10 }],
    ]);
    const values = cpu.map((p) => p.value ?? NaN);
    expect(stats.metrics[0]).toMatchObject({ min: Math.min(...values), max: Math.max(...values) });
  });

  it('stores a re-sent request once and takes samples arriving out of order into place', async () => {
    await sendSamples(30, 60);
    await sendSamples(0, 30);
    await sendSamples(0, 60);
    const memory = await getMetrics(t.app, t.key, { runId: run.runId, logName: 'sys/memory.percentage' });
    expect(memory.map((p) => p.value)).toEqual([...Array(60).keys()].map((i) => 40 + i / 10));
    const [, stats] = (await getStatistics(t.app, t.key, { runId: run.runId })).metrics;
    expect(stats).toMatchObject({ logName: 'sys/memory.percentage', count: 60, last: { step: 0, value: 45.9 } });
  });

  it('samples a long sys/ series to at most limit real points, the first and the last kept', async () => {
    await ingestOk(t.app, t.key, 'metrics', target(), pyNdjson([...Array(600).keys()].map(sampleLine)));
    const all = await getMetrics(t.app, t.key, { runId: run.runId, logName: 'sys/cpu.percentage', limit: 10_000 });
    const sampled = await getMetrics(t.app, t.key, { runId: run.runId, logName: 'sys/cpu.percentage', limit: 20 });
    expect(sampled.length).toBeLessThanOrEqual(20);
    expect(sampled[0]).toEqual(all[0]);
    expect(sampled.at(-1)).toEqual(all.at(-1));
    const real = new Set(all.map((p) => JSON.stringify(p)));
    expect(sampled.every((p) => real.has(JSON.stringify(p)))).toBe(true);
    expect(sampled.map((p) => p.value)).toContain(96);
    expect(sampled.map((p) => p.value)).toContain(0);
  });

  it('keeps one point per step for a metric outside sys/ sent the same way', async () => {
    const lines = [0, 1, 2].map((i) => metricLine(0, { loss: i, 'sys/gpu': i }, T0 + 5_000 * i));
    await ingestOk(t.app, t.key, 'metrics', target(), pyNdjson(lines));
    const points = await getMetrics(t.app, t.key, { runId: run.runId });
    expect(points.map((p) => [p.logName, p.value])).toEqual([
      ['loss', 2],
      ['sys/gpu', 0],
      ['sys/gpu', 1],
      ['sys/gpu', 2],
    ]);
  });
});
