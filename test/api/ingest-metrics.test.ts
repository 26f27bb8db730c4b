import { beforeEach, describe, expect, it } from 'vitest';
import { createRun, expectError, getDetails } from '../helpers/run-api.js';
import { call, useTestApp } from '../helpers/test-app.js';
import {
  getMetrics,
  getStatistics,
  ingest,
  ingestOk,
  ISO_MS,
  metricLine,
  PyFloat,
  pyNdjson,
  type PyValue,
} from '../helpers/ingest-api.js';
import type { RunRef } from '../../src/api/schemas/runs.js';

const t = useTestApp();
let run: RunRef;
beforeEach(async () => {
  run = await createRun(t.app, t.key, { runName: 'r', projectName: 'vision' });
});

const target = () => ({ runId: run.runId, projectName: 'vision' });

describe('POST /ingest/metrics: Python json bodies', () => {
  it('stores bare NaN, Infinity and -Infinity tokens and returns them as null with a valueFlag', async () => {
    const body = pyNdjson([
      metricLine(0, { loss: new PyFloat(1), acc: 0.5 }),
      metricLine(1, { loss: Number.NaN, acc: 0.75 }),
      metricLine(2, { loss: Infinity, acc: 0.875 }),
      metricLine(3, { loss: -Infinity, acc: 1 }),
    ]);
    expect(body).toContain('"loss": NaN');
    expect(body).toContain('"loss": -Infinity');
    expect(await ingestOk(t.app, t.key, 'metrics', target(), body)).toBe(8);

    const loss = await getMetrics(t.app, t.key, { runId: run.runId, logName: 'loss' });
    expect(loss).toEqual([
      { logName: 'loss', logGroup: '', time: '2023-11-14T22:13:20.000Z', step: 0, value: 1 },
      { logName: 'loss', logGroup: '', time: '2023-11-14T22:13:20.001Z', step: 1, value: null, valueFlag: 'NaN' },
      { logName: 'loss', logGroup: '', time: '2023-11-14T22:13:20.002Z', step: 2, value: null, valueFlag: 'Infinity' },
      { logName: 'loss', logGroup: '', time: '2023-11-14T22:13:20.003Z', step: 3, value: null, valueFlag: '-Infinity' },
    ]);
  });

  it('leaves NaN and Infinity inside metric names alone while reading the bare tokens', async () => {
    const body = '{"time": 1, "step": 0, "data": {"Infinity rate": NaN, "NaN count": -Infinity, "x": 1}}\n';
    expect(await ingestOk(t.app, t.key, 'metrics', target(), body)).toBe(3);
    const points = await getMetrics(t.app, t.key, { runId: run.runId });
    expect(points.map((p) => [p.logName, p.value, p.valueFlag])).toEqual([
      ['Infinity rate', null, 'NaN'],
      ['NaN count', null, '-Infinity'],
      ['x', 1, undefined],
    ]);
  });

  it('accepts points for a run that has already finished', async () => {
    expect(
      (await call(t.app, 'POST', '/api/runs/status/update', t.key, { runId: run.runId, status: 'COMPLETED' })).status,
    ).toBe(200);
    expect(await ingestOk(t.app, t.key, 'metrics', target(), pyNdjson([metricLine(0, { late: 1 })]))).toBe(1);
  });

  it('gives finite points no valueFlag at all', async () => {
    await ingestOk(t.app, t.key, 'metrics', target(), pyNdjson([metricLine(0, { a: 0.25 }), metricLine(1, { a: -3 })]));
    for (const p of await getMetrics(t.app, t.key, { runId: run.runId })) expect(p).not.toHaveProperty('valueFlag');
  });

  it('leaves non-finite values out of the statistics', async () => {
    const body = pyNdjson([
      metricLine(0, { loss: 2 }),
      metricLine(1, { loss: Number.NaN }),
      metricLine(2, { loss: 4 }),
      metricLine(3, { loss: Infinity }),
    ]);
    await ingestOk(t.app, t.key, 'metrics', target(), body);
    const [loss] = (await getStatistics(t.app, t.key, { runId: run.runId })).metrics;
    expect(loss).toEqual({
      logName: 'loss',
      logGroup: '',
      count: 2,
      min: 2,
      max: 4,
      mean: 3,
      stddev: 1,
      last: { step: 2, value: 4 },
    });
  });

  it('skips null values and blank lines, counting only stored points', async () => {
    const body = `\n${pyNdjson([metricLine(0, { a: 1, b: null })])}\n   \r\n${pyNdjson([metricLine(1, { a: null, b: 2 })])}\n`;
    expect(await ingestOk(t.app, t.key, 'metrics', target(), body)).toBe(2);
    const points = await getMetrics(t.app, t.key, { runId: run.runId });
    expect(points.map((p) => [p.logName, p.step, p.value])).toEqual([
      ['a', 0, 1],
      ['b', 1, 2],
    ]);
  });

  it('accepts CRLF line ends and a body without a final newline', async () => {
    const body = [metricLine(0, { a: 1 }), metricLine(1, { a: 2 })].map((l) => JSON.stringify(l)).join('\r\n');
    expect(await ingestOk(t.app, t.key, 'metrics', target(), body)).toBe(2);
  });

  it('answers every time as ISO 8601 UTC with milliseconds', async () => {
    await ingestOk(
      t.app,
      t.key,
      'metrics',
      target(),
      pyNdjson([metricLine(0, { a: 1 }, 0), metricLine(1, { a: 1 }, 1_234)]),
    );
    const points = await getMetrics(t.app, t.key, { runId: run.runId });
    expect(points.map((p) => p.time)).toEqual(['1970-01-01T00:00:00.000Z', '1970-01-01T00:00:01.234Z']);
    for (const p of points) expect(p.time).toMatch(ISO_MS);
  });

  const contentTypes = [
    'application/x-ndjson',
    'application/jsonl',
    'application/json',
    'text/plain',
    'application/x-ndjson; charset=utf-8',
  ];
  for (const type of contentTypes) {
    it(`accepts an NDJSON body sent as ${type}`, async () => {
      const res = await ingest(t.app, t.key, 'metrics', target(), pyNdjson([metricLine(0, { a: 1 })]), type);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    });
  }

  it('refuses a body of another content type with 415', async () => {
    const res = await ingest(t.app, t.key, 'metrics', target(), pyNdjson([metricLine(0, { a: 1 })]), 'application/xml');
    expectError(res, 415);
  });
});

describe('POST /ingest/metrics: body size', () => {
  it('accepts a body larger than the 10 MB limit of JSON routes', async () => {
    const lines: PyValue[] = [];
    for (let s = 0; s < 150_000; s++)
      lines.push(metricLine(s, { 'a/fairly/long/metric/name/for/size': s + 0.123456789 }));
    const body = pyNdjson(lines);
    expect(body.length).toBeGreaterThan(11 * 1024 * 1024);
    expect(await ingestOk(t.app, t.key, 'metrics', target(), body)).toBe(150_000);
    expect((await getStatistics(t.app, t.key, { runId: run.runId })).metrics[0]?.count).toBe(150_000);
  });

  it('refuses a body over 64 MB with 413, storing nothing', async () => {
    const line = `${JSON.stringify(metricLine(1, { x: 1 }))}\n`;
    const body = line.repeat(Math.ceil((64 * 1024 * 1024 + 1) / line.length));
    const res = await ingest(t.app, t.key, 'metrics', target(), body);
    expectError(res, 413);
    expect(await getMetrics(t.app, t.key, { runId: run.runId })).toEqual([]);
  });
});

describe('POST /ingest/metrics: a batch is atomic', () => {
  const good = (step: number): string => JSON.stringify(metricLine(step, { loss: step / 10 }));
  const badLines: { name: string; lines: string[]; bad: number }[] = [
    {
      name: 'line 3 has a fractional step',
      lines: [good(0), good(1), '{"time": 5, "step": 2.5, "data": {"loss": 1}}', good(3)],
      bad: 3,
    },
    {
      name: 'line 2 has a negative step',
      lines: [good(0), '{"time": 5, "step": -1, "data": {"loss": 1}}', good(2)],
      bad: 2,
    },
    {
      name: 'line 4 has a negative time',
      lines: [good(0), good(1), good(2), '{"time": -5, "step": 3, "data": {"loss": 1}}'],
      bad: 4,
    },
    { name: 'line 2 has a fractional time', lines: [good(0), '{"time": 5.5, "step": 1, "data": {"loss": 1}}'], bad: 2 },
    { name: 'line 3 misses its step', lines: [good(0), good(1), '{"time": 5, "data": {"loss": 1}}'], bad: 3 },
    { name: 'line 2 misses its time', lines: [good(0), '{"step": 1, "data": {"loss": 1}}'], bad: 2 },
    { name: 'line 2 has no data object', lines: [good(0), '{"time": 5, "step": 1, "data": [1, 2]}'], bad: 2 },
    {
      name: 'line 3 has a string metric value',
      lines: [good(0), good(1), '{"time": 5, "step": 2, "data": {"loss": "0.5"}}'],
      bad: 3,
    },
    {
      name: 'line 2 has a boolean metric value',
      lines: [good(0), '{"time": 5, "step": 1, "data": {"loss": true}}'],
      bad: 2,
    },
    { name: 'line 2 is an array, not an object', lines: [good(0), '[1, 2, 3]', good(2)], bad: 2 },
    {
      name: 'line 3 is not JSON',
      lines: [good(0), good(1), '{"time": 5, "step": 2, "data": {"loss": 1}', good(3)],
      bad: 3,
    },
    {
      name: 'line 2 has a bare token that is not NaN or Infinity',
      lines: [good(0), '{"time": 5, "step": 1, "data": {"loss": nan}}'],
      bad: 2,
    },
    {
      name: 'line 4 (counting blank lines) has a fractional step',
      lines: [good(0), '', '   ', '{"time": 5, "step": 0.5, "data": {"loss": 1}}'],
      bad: 4,
    },
  ];
  for (const { name, lines, bad } of badLines) {
    it(`refuses the whole batch with a 400 naming line ${bad} when ${name}`, async () => {
      const before = await getDetails(t.app, t.key, run.runId);
      const res = await ingest(t.app, t.key, 'metrics', target(), `${lines.join('\n')}\n`);
      expectError(res, 400);
      expect(res.body.error).toMatch(new RegExp(`\\bline ${bad}\\b`));
      expect(await getMetrics(t.app, t.key, { runId: run.runId })).toEqual([]);
      expect((await getStatistics(t.app, t.key, { runId: run.runId })).metrics).toEqual([]);
      expect((await getDetails(t.app, t.key, run.runId)).logNames).toEqual(before.logNames);
    });
  }

  it('keeps earlier batches intact when a later batch is refused', async () => {
    await ingestOk(
      t.app,
      t.key,
      'metrics',
      target(),
      pyNdjson([metricLine(0, { loss: 1 }), metricLine(1, { loss: 2 })]),
    );
    const before = await getDetails(t.app, t.key, run.runId);
    const res = await ingest(
      t.app,
      t.key,
      'metrics',
      target(),
      `${good(2)}\n{"time": 1, "step": 3.5, "data": {"fresh": 1}}\n`,
    );
    expectError(res, 400);
    expect((await getMetrics(t.app, t.key, { runId: run.runId })).map((p) => p.step)).toEqual([0, 1]);
    expect((await getDetails(t.app, t.key, run.runId)).logNames).toEqual(before.logNames);
  });
});

describe('POST /ingest/metrics: the run headers', () => {
  const cases: { name: string; headers: () => { runId: string | number; projectName?: string }; status: number }[] = [
    { name: 'X-Run-Id is the text None', headers: () => ({ runId: 'None', projectName: 'vision' }), status: 400 },
    { name: 'X-Run-Id is empty', headers: () => ({ runId: '' }), status: 400 },
    { name: 'X-Run-Id is not an integer', headers: () => ({ runId: '12abc' }), status: 400 },
    { name: 'X-Run-Id is negative', headers: () => ({ runId: '-1' }), status: 400 },
    { name: 'X-Run-Id names no run', headers: () => ({ runId: 987_654 }), status: 404 },
    {
      name: 'X-Project-Name is another project',
      headers: () => ({ runId: run.runId, projectName: 'other' }),
      status: 400,
    },
  ];
  for (const c of cases) {
    it(`answers ${c.status} when ${c.name}, storing nothing`, async () => {
      const res = await ingest(t.app, t.key, 'metrics', c.headers(), pyNdjson([metricLine(0, { a: 1 })]));
      expectError(res, c.status);
      expect(await getMetrics(t.app, t.key, { runId: run.runId })).toEqual([]);
    });
  }

  it('answers 400 when X-Project-Name is another existing project of the same organization', async () => {
    await createRun(t.app, t.key, { runName: 'x', projectName: 'audio' });
    expectError(
      await ingest(
        t.app,
        t.key,
        'metrics',
        { runId: run.runId, projectName: 'audio' },
        pyNdjson([metricLine(0, { a: 1 })]),
      ),
      400,
    );
  });

  it('answers 404 for a run of another organization and stores nothing in it', async () => {
    const res = await ingest(t.app, t.otherKey, 'metrics', target(), pyNdjson([metricLine(0, { a: 1 })]));
    expectError(res, 404);
    expect(await getMetrics(t.app, t.key, { runId: run.runId })).toEqual([]);
  });

  it('answers 400 when X-Run-Id is missing', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/ingest/metrics',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/x-ndjson' },
      payload: pyNdjson([metricLine(0, { a: 1 })]),
    });
    expect(res.statusCode).toBe(400);
    expect(typeof res.json<{ error: unknown }>().error).toBe('string');
  });

  it('accepts a request without X-Project-Name', async () => {
    expect(await ingestOk(t.app, t.key, 'metrics', { runId: run.runId }, pyNdjson([metricLine(0, { a: 1 })]))).toBe(1);
  });

  it('answers 401 without an API key', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/ingest/metrics',
      headers: { 'content-type': 'application/x-ndjson', 'x-run-id': String(run.runId) },
      payload: pyNdjson([metricLine(0, { a: 1 })]),
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /ingest/metrics: deduplication', () => {
  it('changes nothing when the same batch is sent again', async () => {
    const lines: PyValue[] = [];
    for (let s = 0; s < 50; s++)
      lines.push(metricLine(s, { loss: 1 / (s + 1), 'train/acc': s / 50, odd: s % 7 === 0 ? Number.NaN : s }));
    const body = pyNdjson(lines);
    await ingestOk(t.app, t.key, 'metrics', target(), body);
    const stats = await getStatistics(t.app, t.key, { runId: run.runId });
    const points = await getMetrics(t.app, t.key, { runId: run.runId });
    const details = await getDetails(t.app, t.key, run.runId);
    await ingestOk(t.app, t.key, 'metrics', target(), body);
    await ingestOk(t.app, t.key, 'metrics', target(), body);
    expect(await getStatistics(t.app, t.key, { runId: run.runId })).toEqual(stats);
    expect(await getMetrics(t.app, t.key, { runId: run.runId })).toEqual(points);
    expect((await getDetails(t.app, t.key, run.runId)).logNames).toEqual(details.logNames);
    expect(stats.metrics.find((m) => m.logName === 'loss')?.count).toBe(50);
  });

  it('keeps the point with the later time for the same step, in either arrival order', async () => {
    await ingestOk(t.app, t.key, 'metrics', target(), pyNdjson([metricLine(5, { loss: 1 }, 2_000)]));
    await ingestOk(t.app, t.key, 'metrics', target(), pyNdjson([metricLine(5, { loss: 2 }, 1_000)]));
    let points = await getMetrics(t.app, t.key, { runId: run.runId });
    expect(points.map((p) => [p.step, p.value, p.time])).toEqual([[5, 1, '1970-01-01T00:00:02.000Z']]);

    await ingestOk(t.app, t.key, 'metrics', target(), pyNdjson([metricLine(5, { loss: 3 }, 3_000)]));
    points = await getMetrics(t.app, t.key, { runId: run.runId });
    expect(points.map((p) => [p.step, p.value])).toEqual([[5, 3]]);
    const [loss] = (await getStatistics(t.app, t.key, { runId: run.runId })).metrics;
    expect(loss).toMatchObject({ count: 1, min: 3, max: 3, mean: 3, stddev: 0, last: { step: 5, value: 3 } });
  });

  it('lets the later arrival win when times are equal', async () => {
    await ingestOk(t.app, t.key, 'metrics', target(), pyNdjson([metricLine(1, { loss: 1 }, 500)]));
    await ingestOk(t.app, t.key, 'metrics', target(), pyNdjson([metricLine(1, { loss: 7 }, 500)]));
    expect((await getMetrics(t.app, t.key, { runId: run.runId })).map((p) => p.value)).toEqual([7]);
  });

  it('keeps one point per step when a single batch repeats a step', async () => {
    const body = pyNdjson([
      metricLine(1, { loss: 1 }, 500),
      metricLine(1, { loss: 9 }, 900),
      metricLine(1, { loss: 4 }, 700),
    ]);
    await ingestOk(t.app, t.key, 'metrics', target(), body);
    expect((await getMetrics(t.app, t.key, { runId: run.runId })).map((p) => p.value)).toEqual([9]);
    expect((await getStatistics(t.app, t.key, { runId: run.runId })).metrics[0]).toMatchObject({ count: 1, mean: 9 });
  });

  it('recomputes min, max, mean, stddev and last when points are replaced', async () => {
    await ingestOk(
      t.app,
      t.key,
      'metrics',
      target(),
      pyNdjson([metricLine(0, { v: 1 }, 1), metricLine(1, { v: 5 }, 1), metricLine(2, { v: 3 }, 1)]),
    );
    await ingestOk(t.app, t.key, 'metrics', target(), pyNdjson([metricLine(0, { v: 4 }, 2)]));
    let [v] = (await getStatistics(t.app, t.key, { runId: run.runId })).metrics;
    expect(v).toMatchObject({ count: 3, min: 3, max: 5, mean: 4, last: { step: 2, value: 3 } });
    expect(v?.stddev).toBeCloseTo(Math.sqrt(2 / 3), 12);
    await ingestOk(
      t.app,
      t.key,
      'metrics',
      target(),
      pyNdjson([metricLine(2, { v: 10 }, 2), metricLine(1, { v: 0 }, 2)]),
    );
    [v] = (await getStatistics(t.app, t.key, { runId: run.runId })).metrics;
    expect(v).toMatchObject({ count: 3, min: 0, max: 10, last: { step: 2, value: 10 } });
    expect(v?.mean).toBeCloseTo(14 / 3, 12);
  });

  it('keeps exact summaries when overlapping batches arrive concurrently', async () => {
    const batches = Array.from({ length: 8 }, (_, b) =>
      pyNdjson(Array.from({ length: 500 }, (_, s) => metricLine(s, { v: b * 1_000 + s, [`only${b}`]: s }, 10_000 + b))),
    );
    const replies = await Promise.all(batches.map((body) => ingest(t.app, t.key, 'metrics', target(), body)));
    expect(replies.map((r) => r.status)).toEqual(batches.map(() => 200));
    const stats = await getStatistics(t.app, t.key, { runId: run.runId, logName: 'v' });
    // Batch 7 has the latest time at every step, so its values win: 7000..7499.
    expect(stats.metrics[0]).toMatchObject({
      count: 500,
      min: 7_000,
      max: 7_499,
      mean: 7_249.5,
      last: { step: 499, value: 7_499 },
    });
    const points = await getMetrics(t.app, t.key, { runId: run.runId, logName: 'v', limit: 10_000 });
    expect(points.map((p) => p.value)).toEqual(Array.from({ length: 500 }, (_, s) => 7_000 + s));
    expect((await getDetails(t.app, t.key, run.runId)).logNames).toHaveLength(9);
  });

  it('keeps the summaries exact when a finite value is replaced by a NaN', async () => {
    await ingestOk(
      t.app,
      t.key,
      'metrics',
      target(),
      pyNdjson([metricLine(0, { loss: 2 }, 1), metricLine(1, { loss: 6 }, 1)]),
    );
    await ingestOk(t.app, t.key, 'metrics', target(), pyNdjson([metricLine(1, { loss: Number.NaN }, 2)]));
    const [loss] = (await getStatistics(t.app, t.key, { runId: run.runId })).metrics;
    expect(loss).toMatchObject({ count: 1, min: 2, max: 2, mean: 2, last: { step: 0, value: 2 } });
  });
});

describe('POST /ingest/metrics: log names', () => {
  it('registers every ingested name on the run as METRIC with its group', async () => {
    await ingestOk(
      t.app,
      t.key,
      'metrics',
      target(),
      pyNdjson([metricLine(0, { loss: 1, 'train/acc': 0.5, 'a/b/c': 2, nanOnly: Number.NaN })]),
    );
    const { logNames } = await getDetails(t.app, t.key, run.runId);
    const sorted = [...logNames].sort((a, b) => (a.logName < b.logName ? -1 : 1));
    expect(sorted).toEqual([
      { logName: 'a/b/c', logType: 'METRIC', logGroup: 'a/b' },
      { logName: 'loss', logType: 'METRIC', logGroup: '' },
      { logName: 'nanOnly', logType: 'METRIC', logGroup: '' },
      { logName: 'train/acc', logType: 'METRIC', logGroup: 'train' },
    ]);
  });

  it('registers a name only once however often it is sent', async () => {
    for (let i = 0; i < 3; i++)
      await ingestOk(t.app, t.key, 'metrics', target(), pyNdjson([metricLine(i, { loss: i })]));
    expect((await getDetails(t.app, t.key, run.runId)).logNames).toEqual([
      { logName: 'loss', logType: 'METRIC', logGroup: '' },
    ]);
  });

  it('registers a name on each run separately', async () => {
    const other = await createRun(t.app, t.key, { runName: 'r2', projectName: 'vision' });
    await ingestOk(t.app, t.key, 'metrics', target(), pyNdjson([metricLine(0, { loss: 1 })]));
    await ingestOk(t.app, t.key, 'metrics', { runId: other.runId }, pyNdjson([metricLine(0, { loss: 1 })]));
    expect((await getDetails(t.app, t.key, other.runId)).logNames).toEqual([
      { logName: 'loss', logType: 'METRIC', logGroup: '' },
    ]);
  });

  it('does not register names of a batch whose only values are null', async () => {
    await ingestOk(t.app, t.key, 'metrics', target(), pyNdjson([metricLine(0, { ghost: null })]));
    expect((await getDetails(t.app, t.key, run.runId)).logNames).toEqual([]);
  });
});
