import { describe, expect, it } from 'vitest';
import { encodeRunId } from '../../src/domain/sqid.js';
import { call, useTestApp } from '../helpers/test-app.js';
import {
  createRun,
  expectError,
  getDetails,
  getHistory,
  listProjects,
  itScenarios,
  type Scenario,
  setStatus,
  sleep,
} from '../helpers/run-api.js';
import type { RunRef } from '../../src/api/schemas/runs.js';

const t = useTestApp();

const CREATE = '/api/runs/create';

describe('POST /api/runs/create: a new run', () => {
  it('answers exactly the run reference fields', async () => {
    const res = await call(t.app, 'POST', CREATE, t.key, { runName: 'first', projectName: 'my-ml-project' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      runId: expect.any(Number),
      number: 1,
      displayId: 'MMP-1',
      projectName: 'my-ml-project',
      organizationSlug: t.org,
      url: expect.any(String),
      resumed: false,
      forkedFromRunId: null,
      forkStep: null,
    });
    expect(Number.isInteger(res.body.runId)).toBe(true);
  });

  it('creates the project on demand, with a run count', async () => {
    expect(await listProjects(t.app, t.key)).toEqual([]);
    await createRun(t.app, t.key, { runName: 'a', projectName: 'fresh' });
    const projects = await listProjects(t.app, t.key);
    expect(projects).toEqual([
      {
        id: expect.any(Number),
        name: 'fresh',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        runCount: 1,
      },
    ]);
  });

  it('starts the run RUNNING with no notes, no tags and unset JSON fields', async () => {
    const ref = await createRun(t.app, t.key, { runName: 'plain', projectName: 'p' });
    const run = await getDetails(t.app, t.key, ref.runId);
    expect(run).toMatchObject({
      id: ref.runId,
      name: 'plain',
      number: 1,
      displayId: ref.displayId,
      status: 'RUNNING',
      tags: [],
      projectName: 'p',
      externalId: null,
      forkedFromRunId: null,
      forkStep: null,
      logNames: [],
      config: null,
      systemMetadata: null,
      loggerSettings: null,
      statusMetadata: null,
      notes: null,
    });
    const history = await getHistory(t.app, t.key, ref.runId);
    expect(history).toEqual([
      {
        id: expect.any(Number),
        runId: ref.runId,
        fromStatus: null,
        toStatus: 'RUNNING',
        source: 'api',
        metadata: null,
        createdAt: run.createdAt,
        actor: { userId: expect.any(Number), keyId: expect.any(Number) },
      },
    ]);
  });

  it('numbers runs 1, 2, 3 within a project and starts again at 1 in another project', async () => {
    const a = [];
    for (let i = 0; i < 3; i++) a.push(await createRun(t.app, t.key, { runName: `a${i}`, projectName: 'training' }));
    const b = await createRun(t.app, t.key, { runName: 'b', projectName: 'resnet-50' });
    expect(a.map((r) => r.number)).toEqual([1, 2, 3]);
    expect(a.map((r) => r.displayId)).toEqual(['TRA-1', 'TRA-2', 'TRA-3']);
    expect(new Set(a.map((r) => r.runId)).size).toBe(3);
    expect(b).toMatchObject({ number: 1, displayId: 'R50-1' });
  });

  it('stores config, systemMetadata and loggerSettings as parsed JSON and tags as given', async () => {
    const ref = await createRun(t.app, t.key, {
      runName: 'r',
      projectName: 'p',
      tags: ['baseline', 'v1'],
      config: JSON.stringify({ lr: 0.1, model: { layers: [1, 2] } }),
      systemMetadata: JSON.stringify({ host: 'gpu-1' }),
      loggerSettings: JSON.stringify({ level: 'info' }),
    });
    expect(await getDetails(t.app, t.key, ref.runId)).toMatchObject({
      tags: ['baseline', 'v1'],
      config: { lr: 0.1, model: { layers: [1, 2] } },
      systemMetadata: { host: 'gpu-1' },
      loggerSettings: { level: 'info' },
    });
  });

  const unsetConfigs = [
    { config: 'null', why: 'the string "null"' },
    { config: '', why: 'an empty string' },
    { config: null, why: 'JSON null' },
  ];
  for (const { config, why } of unsetConfigs) {
    it(`treats a config of ${why} as unset`, async () => {
      const ref = await createRun(t.app, t.key, { runName: 'r', projectName: 'p', config });
      expect((await getDetails(t.app, t.key, ref.runId)).config).toBeNull();
    });
  }

  it('accepts explicit nulls for every optional field, as the Python client sends them', async () => {
    const ref = await createRun(t.app, t.key, {
      runName: 'nulls',
      projectName: 'p',
      externalId: null,
      tags: null,
      loggerSettings: null,
      systemMetadata: null,
      config: null,
      createdAt: null,
      updatedAt: null,
      forkRunId: null,
      forkStep: null,
      inheritConfig: null,
      inheritTags: null,
    });
    expect(ref).toMatchObject({ resumed: false, forkedFromRunId: null, forkStep: null });
    expect(await getDetails(t.app, t.key, ref.runId)).toMatchObject({ tags: [], externalId: null, status: 'RUNNING' });
  });

  it('ignores unknown fields', async () => {
    const ref = await createRun(t.app, t.key, {
      runName: 'extras',
      projectName: 'p',
      statusUpdated: 12345,
      somethingElse: { deep: true },
      id: 999,
    });
    expect(ref.resumed).toBe(false);
    expect((await getDetails(t.app, t.key, ref.runId)).name).toBe('extras');
  });

  it('answers a url of the form <publicUrl>/o/<org>/projects/<encoded project>/<sqid>', async () => {
    const project = 'vision models/α';
    const ref = await createRun(t.app, t.key, { runName: 'r', projectName: project });
    const expected = `${t.deps.config.publicUrl}/o/${t.org}/projects/${encodeURIComponent(project)}/${encodeRunId(ref.runId)}`;
    expect(ref.url).toBe(expected);
    expect((await getDetails(t.app, t.key, ref.runId)).url).toBe(expected);
  });
});

describe('POST /api/runs/create: required fields', () => {
  const scenarios: Scenario[] = [
    { name: 'a missing runName is a 400', method: 'POST', url: CREATE, body: { projectName: 'p' }, status: 400 },
    { name: 'a missing projectName is a 400', method: 'POST', url: CREATE, body: { runName: 'r' }, status: 400 },
    {
      name: 'an empty runName is a 400',
      method: 'POST',
      url: CREATE,
      body: { runName: '', projectName: 'p' },
      status: 400,
    },
    {
      name: 'an empty projectName is a 400',
      method: 'POST',
      url: CREATE,
      body: { runName: 'r', projectName: '' },
      status: 400,
    },
    {
      name: 'a null runName is a 400',
      method: 'POST',
      url: CREATE,
      body: { runName: null, projectName: 'p' },
      status: 400,
    },
    {
      name: 'a null projectName is a 400',
      method: 'POST',
      url: CREATE,
      body: { runName: 'r', projectName: null },
      status: 400,
    },
    { name: 'an empty object is a 400', method: 'POST', url: CREATE, body: {}, status: 400 },
    {
      name: 'an empty externalId is a 400',
      method: 'POST',
      url: CREATE,
      body: { runName: 'r', projectName: 'p', externalId: '' },
      status: 400,
    },
    {
      name: 'more than 100 tags are a 400',
      method: 'POST',
      url: CREATE,
      body: { runName: 'r', projectName: 'p', tags: Array.from({ length: 101 }, (_, i) => `t${i}`) },
      status: 400,
    },
    {
      name: 'a 257-character tag is a 400',
      method: 'POST',
      url: CREATE,
      body: { runName: 'r', projectName: 'p', tags: ['x'.repeat(257)] },
      status: 400,
    },
    {
      name: 'an empty tag is a 400',
      method: 'POST',
      url: CREATE,
      body: { runName: 'r', projectName: 'p', tags: [''] },
      status: 400,
    },
  ];
  itScenarios(t, scenarios, { after: async () => expect(await listProjects(t.app, t.key)).toEqual([]) });

  it('names the missing field in the error', async () => {
    const res = await call(t.app, 'POST', CREATE, t.key, { projectName: 'p' });
    expectError(res, 400);
    expect(res.body.error).toContain('runName');
    const res2 = await call(t.app, 'POST', CREATE, t.key, { runName: 'r' });
    expect(res2.body.error).toContain('projectName');
  });
});

describe('display id prefixes', () => {
  it.each([
    ['my-ml-project', 'MMP-1'],
    ['training', 'TRA-1'],
    ['image-classification', 'ICL-1'],
    ['resnet-50', 'R50-1'],
    ['ai', 'AI-1'],
    ['my-ml_project.v2', 'MMPV-1'],
  ])('a run of project %s is %s', async (projectName, displayId) => {
    const ref = await createRun(t.app, t.key, { runName: 'r', projectName });
    expect(ref.displayId).toBe(displayId);
    expect((await getDetails(t.app, t.key, ref.runId)).displayId).toBe(displayId);
  });

  it('gives projects whose prefixes collide in one organization MTE, MTE2 and MTE3', async () => {
    const refs: RunRef[] = [];
    for (const projectName of ['my-test-exp', 'mte', 'm-t-e'])
      refs.push(await createRun(t.app, t.key, { runName: 'r', projectName }));
    expect(refs.map((r) => r.displayId)).toEqual(['MTE-1', 'MTE2-1', 'MTE3-1']);
    const second = await createRun(t.app, t.key, { runName: 'r2', projectName: 'mte' });
    expect(second.displayId).toBe('MTE2-2');
  });

  it('cuts a four-letter prefix to make room for the suffix: MMPV then MMP2', async () => {
    const a = await createRun(t.app, t.key, { runName: 'r', projectName: 'my-ml_project.v2' });
    const b = await createRun(t.app, t.key, { runName: 'r', projectName: 'my-ml-project-v3' });
    expect([a.displayId, b.displayId]).toEqual(['MMPV-1', 'MMP2-1']);
  });

  it('gives parallel creates of colliding projects distinct prefixes', async () => {
    const names = ['my-test-exp', 'mte', 'm-t-e', 'mtex', 'm_t_e'];
    const replies = await Promise.all(
      names.map((projectName) => call(t.app, 'POST', CREATE, t.key, { runName: 'r', projectName })),
    );
    const ids = replies.map((r) => (r.body as unknown as RunRef).displayId);
    expect(new Set(ids).size).toBe(names.length);
    expect([...ids].sort()).toEqual(['MTE-1', 'MTE2-1', 'MTE3-1', 'MTE4-1', 'MTE5-1']);
  });

  it('numbers 8 parallel creates in one project 1 to 8', async () => {
    const replies = await Promise.all(
      Array.from({ length: 8 }, (_, i) => call(t.app, 'POST', CREATE, t.key, { runName: `r${i}`, projectName: 'par' })),
    );
    const numbers = replies.map((r) => (r.body as unknown as RunRef).number).sort((a, b) => a - b);
    expect(numbers).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect((await listProjects(t.app, t.key))[0]!.runCount).toBe(8);
  });

  it('keeps prefixes per organization: the other organization gets MTE again', async () => {
    await createRun(t.app, t.key, { runName: 'r', projectName: 'my-test-exp' });
    await createRun(t.app, t.key, { runName: 'r', projectName: 'mte' });
    const theirs = await createRun(t.app, t.otherKey, { runName: 'r', projectName: 'mte' });
    expect(theirs.displayId).toBe('MTE-1');
    expect(theirs.organizationSlug).toBe(t.otherOrg);
  });
});

describe('createdAt and updatedAt backfill', () => {
  const backfills = [
    {
      label: 'epoch 0',
      createdAt: 0,
      updatedAt: 0,
      created: '1970-01-01T00:00:00.000Z',
      updated: '1970-01-01T00:00:00.000Z',
    },
    {
      label: 'a past time',
      createdAt: 1_700_000_000_000,
      updatedAt: 1_700_000_000_500,
      created: '2023-11-14T22:13:20.000Z',
      updated: '2023-11-14T22:13:20.500Z',
    },
  ];
  for (const { label, createdAt, updatedAt, created, updated } of backfills) {
    it(`a backfilled createdAt of ${label} shows in details and as the creation event time`, async () => {
      const ref = await createRun(t.app, t.key, { runName: 'old', projectName: 'p', createdAt, updatedAt });
      const run = await getDetails(t.app, t.key, ref.runId);
      expect(run.createdAt).toBe(created);
      expect(run.updatedAt).toBe(updated);
      const history = await getHistory(t.app, t.key, ref.runId);
      expect(history).toHaveLength(1);
      expect(history[0]).toMatchObject({ fromStatus: null, toStatus: 'RUNNING', createdAt: created });
    });
  }

  it('answers ISO 8601 UTC timestamps with milliseconds when nothing is backfilled', async () => {
    const before = Date.now();
    const ref = await createRun(t.app, t.key, { runName: 'now', projectName: 'p' });
    const run = await getDetails(t.app, t.key, ref.runId);
    for (const ts of [run.createdAt, run.updatedAt, run.statusUpdated]) {
      expect(ts).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
    expect(Date.parse(run.createdAt)).toBeGreaterThanOrEqual(before - 5);
    expect(Date.parse(run.createdAt)).toBeLessThanOrEqual(Date.now() + 5);
  });

  it('keeps listing a project newest first even when its first run was backfilled to epoch 0', async () => {
    await createRun(t.app, t.key, { runName: 'a', projectName: 'made-first' });
    await sleep(5);
    await createRun(t.app, t.key, { runName: 'b', projectName: 'made-second', createdAt: 0, updatedAt: 0 });
    const names = (await listProjects(t.app, t.key)).map((p) => p.name);
    expect(names).toEqual(['made-second', 'made-first']);
  });
});

describe('externalId', () => {
  it('8 parallel creates with one externalId give one run and exactly one resumed:false', async () => {
    const body = { runName: 'ddp', projectName: 'p', externalId: 'job-42' };
    const replies = await Promise.all(Array.from({ length: 8 }, () => call(t.app, 'POST', CREATE, t.key, body)));
    for (const r of replies) expect(r.status).toBe(200);
    const refs = replies.map((r) => r.body as unknown as RunRef);
    expect(new Set(refs.map((r) => r.runId)).size).toBe(1);
    expect(refs.filter((r) => !r.resumed)).toHaveLength(1);
    expect(refs.filter((r) => r.resumed)).toHaveLength(7);
    expect((await listProjects(t.app, t.key))[0]!.runCount).toBe(1);
    expect(await getHistory(t.app, t.key, refs[0]!.runId)).toHaveLength(1);
  });

  it('returns a RUNNING run with resumed true and records no new event', async () => {
    const first = await createRun(t.app, t.key, { runName: 'r', projectName: 'p', externalId: 'x' });
    const again = await createRun(t.app, t.key, {
      runName: 'other name',
      projectName: 'p',
      externalId: 'x',
      tags: ['new'],
    });
    expect(again).toEqual({ ...first, resumed: true });
    const run = await getDetails(t.app, t.key, first.runId);
    expect(run).toMatchObject({ name: 'r', tags: [], status: 'RUNNING', externalId: 'x' });
    expect(await getHistory(t.app, t.key, first.runId)).toHaveLength(1);
  });

  it('puts a COMPLETED run back to RUNNING with a resume event', async () => {
    const first = await createRun(t.app, t.key, { runName: 'r', projectName: 'p', externalId: 'x' });
    await setStatus(t.app, t.key, first.runId, 'COMPLETED');
    const again = await createRun(t.app, t.key, { runName: 'r', projectName: 'p', externalId: 'x' });
    expect(again).toMatchObject({ runId: first.runId, resumed: true });
    expect((await getDetails(t.app, t.key, first.runId)).status).toBe('RUNNING');
    const history = await getHistory(t.app, t.key, first.runId);
    expect(history.map((e) => [e.fromStatus, e.toStatus, e.source])).toEqual([
      [null, 'RUNNING', 'api'],
      ['RUNNING', 'COMPLETED', 'api'],
      ['COMPLETED', 'RUNNING', 'resume'],
    ]);
  });

  it('deep-merges a supplied config into the resumed run', async () => {
    const config = { optimizer: { name: 'adam', lr: 0.1 }, epochs: 10, layers: [1, 2, 3] };
    const first = await createRun(t.app, t.key, {
      runName: 'r',
      projectName: 'p',
      externalId: 'x',
      config: JSON.stringify(config),
    });
    const patch = { optimizer: { lr: 0.01 }, layers: [4], seed: 7 };
    await createRun(t.app, t.key, { runName: 'r', projectName: 'p', externalId: 'x', config: JSON.stringify(patch) });
    expect((await getDetails(t.app, t.key, first.runId)).config).toEqual({
      optimizer: { name: 'adam', lr: 0.01 },
      epochs: 10,
      layers: [4],
      seed: 7,
    });
  });

  it('leaves the config alone when the resuming create supplies none', async () => {
    const first = await createRun(t.app, t.key, { runName: 'r', projectName: 'p', externalId: 'x', config: '{"a":1}' });
    await createRun(t.app, t.key, { runName: 'r', projectName: 'p', externalId: 'x', config: null });
    expect((await getDetails(t.app, t.key, first.runId)).config).toEqual({ a: 1 });
  });

  it('is scoped to the project: the same externalId in another project is a new run', async () => {
    const a = await createRun(t.app, t.key, { runName: 'r', projectName: 'p1', externalId: 'same' });
    const b = await createRun(t.app, t.key, { runName: 'r', projectName: 'p2', externalId: 'same' });
    expect(b.resumed).toBe(false);
    expect(b.runId).not.toBe(a.runId);
  });
});
