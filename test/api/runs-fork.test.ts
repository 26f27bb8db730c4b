import { beforeEach, describe, expect, it } from 'vitest';
import { call, useTestApp } from '../helpers/test-app.js';
import { createRun, expectError, getDetails, itScenarios, type Scenario } from '../helpers/run-api.js';
import type { RunRef } from '../../src/api/schemas/runs.js';

const t = useTestApp();
let parent: RunRef;
const parentConfig = {
  optimizer: { name: 'adam', lr: 0.1, betas: [0.9, 0.99] },
  epochs: 10,
  data: { path: '/d', shuffle: true },
};
beforeEach(async () => {
  parent = await createRun(t.app, t.key, {
    runName: 'parent',
    projectName: 'forks',
    tags: ['base', 'shared'],
    config: JSON.stringify(parentConfig),
  });
});

const CREATE = '/api/runs/create';
const fork = (body: Record<string, unknown>) =>
  createRun(t.app, t.key, { runName: 'child', projectName: 'forks', forkRunId: parent.runId, forkStep: 5, ...body });

describe('fork lineage', () => {
  it('answers forkedFromRunId and forkStep through three generations, in create and details', async () => {
    const child = await fork({ forkStep: 10 });
    const grandchild = await createRun(t.app, t.key, {
      runName: 'gc',
      projectName: 'forks',
      forkRunId: child.runId,
      forkStep: 7,
    });
    const great = await createRun(t.app, t.key, {
      runName: 'ggc',
      projectName: 'forks',
      forkRunId: grandchild.runId,
      forkStep: 0,
    });
    expect(child).toMatchObject({ resumed: false, forkedFromRunId: parent.runId, forkStep: 10 });
    expect(grandchild).toMatchObject({ forkedFromRunId: child.runId, forkStep: 7 });
    expect(great).toMatchObject({ forkedFromRunId: grandchild.runId, forkStep: 0 });
    expect(await getDetails(t.app, t.key, parent.runId)).toMatchObject({ forkedFromRunId: null, forkStep: null });
    expect(await getDetails(t.app, t.key, child.runId)).toMatchObject({ forkedFromRunId: parent.runId, forkStep: 10 });
    expect(await getDetails(t.app, t.key, grandchild.runId)).toMatchObject({
      forkedFromRunId: child.runId,
      forkStep: 7,
    });
    expect(await getDetails(t.app, t.key, great.runId)).toMatchObject({
      forkedFromRunId: grandchild.runId,
      forkStep: 0,
    });
    expect([child.number, grandchild.number, great.number]).toEqual([2, 3, 4]);
  });

  it('returns the stored forkedFromRunId and forkStep when a fork is resumed by externalId', async () => {
    const child = await fork({ externalId: 'fork-1', forkStep: 3 });
    const again = await createRun(t.app, t.key, { runName: 'child', projectName: 'forks', externalId: 'fork-1' });
    expect(again).toMatchObject({ runId: child.runId, resumed: true, forkedFromRunId: parent.runId, forkStep: 3 });
  });
});

describe('fork refusals', () => {
  /** A runs/create of run `c` in project `forks` with these fork fields, which must be refused. */
  const row = (name: string, fields: () => Record<string, unknown>, status: number): Scenario => ({
    name,
    method: 'POST',
    url: CREATE,
    body: () => ({ runName: 'c', projectName: 'forks', ...fields() }),
    status,
  });
  const cases: Scenario[] = [
    row('forkStep without forkRunId is a 400', () => ({ forkStep: 3 }), 400),
    row('forkRunId without forkStep is a 400', () => ({ forkRunId: parent.runId }), 400),
    row('forkRunId with a null forkStep is a 400', () => ({ forkRunId: parent.runId, forkStep: null }), 400),
    row('a negative forkStep is a 400', () => ({ forkRunId: parent.runId, forkStep: -1 }), 400),
    row('a fractional forkStep is a 400', () => ({ forkRunId: parent.runId, forkStep: 1.5 }), 400),
    row(
      'a parent in another project is a 404',
      () => ({ projectName: 'elsewhere', forkRunId: parent.runId, forkStep: 1 }),
      404,
    ),
    row('an unknown parent is a 404', () => ({ forkRunId: 987654, forkStep: 1 }), 404),
  ];
  itScenarios(t, cases, {
    after: async () => {
      const projects = (await call(t.app, 'GET', '/api/runs/projects', t.key)).body.projects as {
        name: string;
        runCount: number;
      }[];
      expect(projects.find((p) => p.name === 'forks')?.runCount).toBe(1);
    },
  });

  it("a forkStep beyond the parent's highest metric step is a 400", async () => {
    const lines = [0, 1, 2, 3].map((step) =>
      JSON.stringify({ time: 1_700_000_000_000 + step, step, data: { loss: 1 / (step + 1) } }),
    );
    const ingest = await call(t.app, 'POST', '/ingest/metrics', t.key, `${lines.join('\n')}\n`, {
      'content-type': 'application/x-ndjson',
      'x-run-id': String(parent.runId),
      'x-project-name': 'forks',
    });
    expect(ingest.status, JSON.stringify(ingest.body)).toBe(200);
    const create = (forkStep: number) =>
      call(t.app, 'POST', CREATE, t.key, { runName: 'c', projectName: 'forks', forkRunId: parent.runId, forkStep });
    expectError(await create(4), 400);
    expect((await create(3)).status).toBe(200);
  });
});

describe('config and tag inheritance', () => {
  it('inherits the parent config by default, deep-merging the supplied config over it', async () => {
    const child = await fork({
      config: JSON.stringify({ optimizer: { lr: 0.01 }, data: { shuffle: false }, seed: 1 }),
    });
    expect((await getDetails(t.app, t.key, child.runId)).config).toEqual({
      optimizer: { name: 'adam', lr: 0.01, betas: [0.9, 0.99] },
      epochs: 10,
      data: { path: '/d', shuffle: false },
      seed: 1,
    });
  });

  it('inherits the parent config unchanged when no config is supplied', async () => {
    const child = await fork({});
    expect((await getDetails(t.app, t.key, child.runId)).config).toEqual(parentConfig);
  });

  it("with inheritConfig true, supplied arrays replace the parent's", async () => {
    const child = await fork({ inheritConfig: true, config: JSON.stringify({ optimizer: { betas: [0.5] } }) });
    expect((await getDetails(t.app, t.key, child.runId)).config).toMatchObject({
      optimizer: { name: 'adam', lr: 0.1, betas: [0.5] },
    });
  });

  it('with inheritConfig false, the child has only the supplied config', async () => {
    const child = await fork({ inheritConfig: false, config: JSON.stringify({ seed: 2 }) });
    expect((await getDetails(t.app, t.key, child.runId)).config).toEqual({ seed: 2 });
    const bare = await fork({ inheritConfig: false });
    expect((await getDetails(t.app, t.key, bare.runId)).config).toBeNull();
  });

  it('does not change the parent config', async () => {
    await fork({ config: JSON.stringify({ optimizer: { lr: 0.5 } }) });
    expect((await getDetails(t.app, t.key, parent.runId)).config).toEqual(parentConfig);
  });

  it('does not inherit tags by default', async () => {
    const child = await fork({ tags: ['mine'] });
    expect((await getDetails(t.app, t.key, child.runId)).tags).toEqual(['mine']);
  });

  it('with inheritTags true, lists the parent tags first, then the supplied ones, de-duplicated', async () => {
    const child = await fork({ inheritTags: true, tags: ['shared', 'mine', 'mine'] });
    expect((await getDetails(t.app, t.key, child.runId)).tags).toEqual(['base', 'shared', 'mine']);
  });

  it('with inheritTags true and no tags supplied, copies the parent tags', async () => {
    const child = await fork({ inheritTags: true });
    expect((await getDetails(t.app, t.key, child.runId)).tags).toEqual(['base', 'shared']);
  });
});
