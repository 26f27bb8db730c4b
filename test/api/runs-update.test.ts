import { beforeEach, describe, expect, it } from 'vitest';
import { call, useTestApp } from '../helpers/test-app.js';
import { createRun, expectError, getDetails, itScenarios, scenarioRows, update } from '../helpers/run-api.js';

const t = useTestApp();
let runId: number;
beforeEach(async () => {
  runId = (await createRun(t.app, t.key, { runName: 'r', projectName: 'p' })).runId;
});

const configOf = async (): Promise<unknown> => (await getDetails(t.app, t.key, runId)).config;

describe('POST /api/runs/config/update deep-merges', () => {
  const merges: { name: string; base: unknown; patch: Record<string, unknown>; expected: unknown }[] = [
    { name: 'into an unset config, giving the patch', base: null, patch: { a: 1 }, expected: { a: 1 } },
    { name: 'new keys next to existing ones', base: { a: 1 }, patch: { b: 2 }, expected: { a: 1, b: 2 } },
    {
      name: 'nested objects key by key',
      base: { opt: { lr: 0.1, name: 'adam' } },
      patch: { opt: { lr: 0.01 } },
      expected: { opt: { lr: 0.01, name: 'adam' } },
    },
    {
      name: 'objects nested three deep',
      base: { a: { b: { c: 1, d: 2 }, e: 3 } },
      patch: { a: { b: { c: 9 } } },
      expected: { a: { b: { c: 9, d: 2 }, e: 3 } },
    },
    {
      name: 'with arrays replacing arrays',
      base: { layers: [1, 2, 3] },
      patch: { layers: [4] },
      expected: { layers: [4] },
    },
    {
      name: 'with scalars replacing scalars',
      base: { lr: 0.1, name: 'x' },
      patch: { lr: 1, name: 'y' },
      expected: { lr: 1, name: 'y' },
    },
    {
      name: 'with a scalar replacing an object',
      base: { opt: { lr: 1 } },
      patch: { opt: 'sgd' },
      expected: { opt: 'sgd' },
    },
    {
      name: 'with an object replacing a scalar',
      base: { opt: 'sgd' },
      patch: { opt: { lr: 1 } },
      expected: { opt: { lr: 1 } },
    },
    {
      name: 'with an array replacing an object',
      base: { opt: { lr: 1 } },
      patch: { opt: [1] },
      expected: { opt: [1] },
    },
    {
      name: 'with null replacing a value',
      base: { a: 1, b: { c: 2 } },
      patch: { a: null, b: null },
      expected: { a: null, b: null },
    },
    { name: 'with an empty patch changing nothing', base: { a: 1 }, patch: {}, expected: { a: 1 } },
    {
      name: 'keeping a __proto__ key as plain data',
      base: { a: 1 },
      patch: JSON.parse('{"__proto__":{"x":1}}') as Record<string, unknown>,
      expected: JSON.parse('{"a":1,"__proto__":{"x":1}}') as unknown,
    },
  ];
  for (const m of merges) {
    it(m.name, async () => {
      if (m.base !== null)
        await update(t.app, t.key, '/api/runs/config/update', { runId, config: JSON.stringify(m.base) });
      await update(t.app, t.key, '/api/runs/config/update', { runId, config: JSON.stringify(m.patch) });
      expect(await configOf()).toEqual(m.expected);
    });
  }

  it('applies successive updates in order', async () => {
    for (const patch of [{ a: 1 }, { b: { c: 1 } }, { b: { d: 2 } }, { a: 3 }]) {
      await update(t.app, t.key, '/api/runs/config/update', { runId, config: JSON.stringify(patch) });
    }
    expect(await configOf()).toEqual({ a: 3, b: { c: 1, d: 2 } });
  });

  const row = scenarioRows('POST', '/api/runs/config/update');
  const refusals = [
    row('a config encoding an array is a 400', () => ({ runId, config: '[1]' }), 400),
    row('a config encoding a number is a 400', () => ({ runId, config: '5' }), 400),
    row('a config encoding a string is a 400', () => ({ runId, config: '"text"' }), 400),
    row('a config encoding true is a 400', () => ({ runId, config: 'true' }), 400),
    row('a config that is not JSON is a 400', () => ({ runId, config: '{"a":' }), 400),
    row('a config sent as an array instead of an object or string is a 400', () => ({ runId, config: [1] }), 400),
    row('a missing config is a 400', () => ({ runId }), 400),
    row('an unknown run is a 404', () => ({ runId: 987654, config: '{"a":1}' }), 404),
  ];
  itScenarios(t, refusals, {
    before: () => update(t.app, t.key, '/api/runs/config/update', { runId, config: '{"keep":true}' }),
    after: async () => expect(await configOf()).toEqual({ keep: true }),
  });
});

describe('POST /api/runs/tags/update', () => {
  it('replaces all tags', async () => {
    await update(t.app, t.key, '/api/runs/tags/update', { runId, tags: ['a', 'b'] });
    await update(t.app, t.key, '/api/runs/tags/update', { runId, tags: ['c'] });
    expect((await getDetails(t.app, t.key, runId)).tags).toEqual(['c']);
  });

  it('clears tags with an empty list', async () => {
    await update(t.app, t.key, '/api/runs/tags/update', { runId, tags: ['a'] });
    await update(t.app, t.key, '/api/runs/tags/update', { runId, tags: [] });
    expect((await getDetails(t.app, t.key, runId)).tags).toEqual([]);
  });

  it('accepts 100 tags of 256 characters', async () => {
    const tags = Array.from({ length: 100 }, (_, i) => `${String(i).padStart(3, '0')}${'x'.repeat(253)}`);
    await update(t.app, t.key, '/api/runs/tags/update', { runId, tags });
    expect((await getDetails(t.app, t.key, runId)).tags).toEqual(tags);
  });

  const row = scenarioRows('POST', '/api/runs/tags/update');
  const refusals = [
    row('101 tags are a 400', () => ({ runId, tags: Array.from({ length: 101 }, (_, i) => `t${i}`) }), 400),
    row('a 257-character tag is a 400', () => ({ runId, tags: ['x'.repeat(257)] }), 400),
    row('an empty tag is a 400', () => ({ runId, tags: [''] }), 400),
    row('a tag that is not a string is a 400', () => ({ runId, tags: [5] }), 400),
    row('tags that are not a list are a 400', () => ({ runId, tags: 'a,b' }), 400),
  ];
  itScenarios(t, refusals, {
    before: () => update(t.app, t.key, '/api/runs/tags/update', { runId, tags: ['keep'] }),
    after: async () => expect((await getDetails(t.app, t.key, runId)).tags).toEqual(['keep']),
  });
});

describe('POST /api/runs/notes/update', () => {
  it('stores notes and returns them in details', async () => {
    await update(t.app, t.key, '/api/runs/notes/update', { runId, notes: 'lr too high, retry with 1e-4' });
    expect((await getDetails(t.app, t.key, runId)).notes).toBe('lr too high, retry with 1e-4');
  });

  it('accepts 10,000 characters', async () => {
    const notes = 'n'.repeat(10_000);
    await update(t.app, t.key, '/api/runs/notes/update', { runId, notes });
    expect((await getDetails(t.app, t.key, runId)).notes).toBe(notes);
  });

  it('refuses 10,001 characters with a 400 and keeps the old notes', async () => {
    await update(t.app, t.key, '/api/runs/notes/update', { runId, notes: 'old' });
    expectError(await call(t.app, 'POST', '/api/runs/notes/update', t.key, { runId, notes: 'n'.repeat(10_001) }), 400);
    expect((await getDetails(t.app, t.key, runId)).notes).toBe('old');
  });

  for (const clear of [null, '']) {
    it(`clears the notes with ${JSON.stringify(clear)}`, async () => {
      await update(t.app, t.key, '/api/runs/notes/update', { runId, notes: 'something' });
      await update(t.app, t.key, '/api/runs/notes/update', { runId, notes: clear });
      expect((await getDetails(t.app, t.key, runId)).notes).toBeNull();
    });
  }

  const row = scenarioRows('POST', '/api/runs/notes/update');
  itScenarios(t, [
    row('refuses notes that are not a string with a 400', () => ({ runId, notes: 5 }), 400),
    row('refuses an unknown run with a 404', { runId: 987654, notes: 'x' }, 404),
  ]);
});

describe('POST /api/runs/logName/add', () => {
  it('registers names with their type and group, sorted by name', async () => {
    await update(t.app, t.key, '/api/runs/logName/add', {
      runId,
      logName: ['train/loss', 'acc', 'a/b/c'],
      logType: 'METRIC',
    });
    expect((await getDetails(t.app, t.key, runId)).logNames).toEqual([
      { logName: 'a/b/c', logType: 'METRIC', logGroup: 'a/b' },
      { logName: 'acc', logType: 'METRIC', logGroup: '' },
      { logName: 'train/loss', logType: 'METRIC', logGroup: 'train' },
    ]);
  });

  it('keeps the type of names already present', async () => {
    await update(t.app, t.key, '/api/runs/logName/add', { runId, logName: ['samples'], logType: 'IMAGE' });
    await update(t.app, t.key, '/api/runs/logName/add', { runId, logName: ['samples', 'hist'], logType: 'HISTOGRAM' });
    expect((await getDetails(t.app, t.key, runId)).logNames).toEqual([
      { logName: 'hist', logType: 'HISTOGRAM', logGroup: '' },
      { logName: 'samples', logType: 'IMAGE', logGroup: '' },
    ]);
  });

  it.each(['METRIC', 'IMAGE', 'VIDEO', 'AUDIO', 'FILE', 'TEXT', 'ARTIFACT', 'HISTOGRAM', 'TABLE', 'DATA', 'GRAPH'])(
    'accepts the logType %s',
    async (logType) => {
      await update(t.app, t.key, '/api/runs/logName/add', { runId, logName: ['x'], logType });
      expect((await getDetails(t.app, t.key, runId)).logNames).toEqual([{ logName: 'x', logType, logGroup: '' }]);
    },
  );

  const row = scenarioRows('POST', '/api/runs/logName/add');
  const refusals = [
    row('an unknown logType is a 400', () => ({ runId, logName: ['x'], logType: 'SOUND' }), 400),
    row('a lower-case logType is a 400', () => ({ runId, logName: ['x'], logType: 'metric' }), 400),
    row(
      'a logName that is a string instead of a list is a 400',
      () => ({ runId, logName: 'x', logType: 'METRIC' }),
      400,
    ),
    row('an empty logName is a 400', () => ({ runId, logName: [''], logType: 'METRIC' }), 400),
    row('an unknown run is a 404', { runId: 987654, logName: ['x'], logType: 'METRIC' }, 404),
  ];
  itScenarios(t, refusals, {
    after: async () => expect((await getDetails(t.app, t.key, runId)).logNames).toEqual([]),
  });
});

describe('model graphs', () => {
  const graph = {
    format: 'torch',
    nodes: {
      conv1: { type: 'Conv2d', params: 864, edges: [['input', 'conv1']] },
      fc: {
        type: 'Linear',
        edges: [
          ['conv1', 'fc'],
          ['fc', 'output'],
        ],
      },
    },
  };

  it('stores a graph and reads it back as {runId, graph: {format, nodes}}', async () => {
    await update(t.app, t.key, '/api/runs/modelGraph/create', { runId, graph });
    const res = await call(t.app, 'GET', `/api/runs/modelGraph?runId=${runId}`, t.key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ runId, graph });
  });

  it('replaces the graph on a second create', async () => {
    await update(t.app, t.key, '/api/runs/modelGraph/create', { runId, graph });
    const second = { format: 'onnx', nodes: { only: { edges: [] } } };
    await update(t.app, t.key, '/api/runs/modelGraph/create', { runId, graph: second });
    expect((await call(t.app, 'GET', `/api/runs/modelGraph?runId=${runId}`, t.key)).body).toEqual({
      runId,
      graph: second,
    });
  });

  it('answers 404 for a run without a graph', async () => {
    expectError(await call(t.app, 'GET', `/api/runs/modelGraph?runId=${runId}`, t.key), 404, 'NOT_FOUND');
  });

  it('answers 404 for an unknown run', async () => {
    expectError(await call(t.app, 'GET', '/api/runs/modelGraph?runId=987654', t.key), 404, 'NOT_FOUND');
    expectError(
      await call(t.app, 'POST', '/api/runs/modelGraph/create', t.key, { runId: 987654, graph }),
      404,
      'NOT_FOUND',
    );
  });

  const row = scenarioRows('POST', '/api/runs/modelGraph/create');
  itScenarios(t, [
    row('a graph without nodes is a 400', () => ({ runId, graph: { format: 'torch' } }), 400),
    row('a graph without format is a 400', () => ({ runId, graph: { nodes: {} } }), 400),
    row('nodes given as a list is a 400', () => ({ runId, graph: { format: 'torch', nodes: [] } }), 400),
    row('a missing graph is a 400', () => ({ runId }), 400),
  ]);
});
