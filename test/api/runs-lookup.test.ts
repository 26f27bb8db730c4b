import { beforeEach, describe, expect, it } from 'vitest';
import { encodeRunId } from '../../src/domain/sqid.js';
import { call, useTestApp } from '../helpers/test-app.js';
import { createRun, getDetails, listProjects, itScenarios, type Scenario, sleep, update } from '../helpers/run-api.js';
import type { RunRef } from '../../src/api/schemas/runs.js';
import { ingestSeries } from '../helpers/ingest-api.js';

const t = useTestApp();
let run: RunRef;
let other: RunRef;
beforeEach(async () => {
  run = await createRun(t.app, t.key, {
    runName: 'r',
    projectName: 'my-ml-project',
    externalId: 'e1',
    tags: ['t'],
    config: '{"a":1}',
  });
  other = await createRun(t.app, t.key, { runName: 'o', projectName: 'training' });
});

const DETAIL_FIELDS = [
  'config',
  'createdAt',
  'createdBy',
  'displayId',
  'externalId',
  'forkStep',
  'forkedFromRunId',
  'id',
  'logNames',
  'loggerSettings',
  'name',
  'notes',
  'number',
  'projectName',
  'status',
  'statusMetadata',
  'statusUpdated',
  'systemMetadata',
  'tags',
  'updatedAt',
  'url',
];

describe('GET /api/runs/details/{runId}', () => {
  it('answers every run field of the contract', async () => {
    await update(t.app, t.key, '/api/runs/notes/update', { runId: run.runId, notes: 'hello' });
    const res = await call(t.app, 'GET', `/api/runs/details/${run.runId}`, t.key);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(DETAIL_FIELDS);
    expect(res.body).toMatchObject({
      id: run.runId,
      name: 'r',
      number: 1,
      displayId: 'MMP-1',
      status: 'RUNNING',
      tags: ['t'],
      projectName: 'my-ml-project',
      externalId: 'e1',
      config: { a: 1 },
      notes: 'hello',
      url: run.url,
    });
  });
});

describe('GET /api/runs/details/by-display-id/{displayId}', () => {
  const found: { name: string; url: () => string }[] = [
    { name: 'finds a run by its display id', url: () => `/api/runs/details/by-display-id/${run.displayId}` },
    {
      name: 'accepts the display id in lower case',
      url: () => `/api/runs/details/by-display-id/${run.displayId.toLowerCase()}`,
    },
    {
      name: 'accepts the projectName that owns the run',
      url: () => `/api/runs/details/by-display-id/${run.displayId}?projectName=my-ml-project`,
    },
  ];
  for (const f of found) {
    it(f.name, async () => {
      const res = await call(t.app, 'GET', f.url(), t.key);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(await getDetails(t.app, t.key, run.runId));
    });
  }

  const scenarios: Scenario[] = [
    {
      name: 'a projectName that does not own the display id is a 404',
      method: 'GET',
      url: '/api/runs/details/by-display-id/MMP-1?projectName=training',
      status: 404,
      code: 'NOT_FOUND',
    },
    {
      name: 'an unknown projectName is a 404',
      method: 'GET',
      url: '/api/runs/details/by-display-id/MMP-1?projectName=nope',
      status: 404,
      code: 'NOT_FOUND',
    },
    {
      name: 'an unknown number is a 404',
      method: 'GET',
      url: '/api/runs/details/by-display-id/MMP-2',
      status: 404,
      code: 'NOT_FOUND',
    },
    {
      name: 'an unknown prefix is a 404',
      method: 'GET',
      url: '/api/runs/details/by-display-id/ZZZ-1',
      status: 404,
      code: 'NOT_FOUND',
    },
    {
      name: 'a display id without a number is a 400',
      method: 'GET',
      url: '/api/runs/details/by-display-id/MMP',
      status: 400,
    },
    {
      name: 'a display id with number 0 is a 400',
      method: 'GET',
      url: '/api/runs/details/by-display-id/MMP-0',
      status: 400,
    },
    {
      name: 'a display id with a five-letter prefix is a 400',
      method: 'GET',
      url: '/api/runs/details/by-display-id/ABCDE-1',
      status: 400,
    },
  ];
  itScenarios(t, scenarios);

  it('tells runs of different projects apart', async () => {
    const res = await call(t.app, 'GET', `/api/runs/details/by-display-id/${other.displayId}`, t.key);
    expect(res.body).toMatchObject({ id: other.runId, projectName: 'training', displayId: 'TRA-1' });
  });
});

describe('GET /api/runs/{sqid}', () => {
  it('decodes the SQID of a run to {runId}', async () => {
    const res = await call(t.app, 'GET', `/api/runs/${encodeRunId(run.runId)}`, t.key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ runId: run.runId });
  });

  it('decodes the last segment of the run url', async () => {
    const sqid = run.url.split('/').at(-1)!;
    expect((await call(t.app, 'GET', `/api/runs/${sqid}`, t.key)).body).toEqual({ runId: run.runId });
  });

  const scenarios: Scenario[] = [
    { name: 'a SQID shorter than five characters is a 400', method: 'GET', url: '/api/runs/abc', status: 400 },
    {
      name: 'a SQID with characters outside the alphabet is a 400',
      method: 'GET',
      url: '/api/runs/ab-cd_ef',
      status: 400,
    },
    { name: 'a non-canonical SQID is a 400', method: 'GET', url: `/api/runs/${encodeRunId(1)}zz`, status: 400 },
    {
      name: 'the SQID of a run that does not exist is a 404',
      method: 'GET',
      url: `/api/runs/${encodeRunId(987654)}`,
      status: 404,
      code: 'NOT_FOUND',
    },
  ];
  itScenarios(t, scenarios);
});

describe('GET /api/runs/projects', () => {
  it('lists projects newest first with their run counts', async () => {
    await sleep(5);
    await createRun(t.app, t.key, { runName: 'n', projectName: 'newest' });
    await createRun(t.app, t.key, { runName: 'r2', projectName: 'my-ml-project' });
    await createRun(t.app, t.key, { runName: 'r3', projectName: 'my-ml-project' });
    const projects = await listProjects(t.app, t.key);
    expect(projects.map((p) => [p.name, p.runCount])).toEqual([
      ['newest', 1],
      ['training', 1],
      ['my-ml-project', 3],
    ]);
    for (const p of projects) {
      expect(Object.keys(p).sort()).toEqual(['createdAt', 'id', 'name', 'runCount', 'updatedAt']);
      expect(p.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
  });

  it("moves a project's updatedAt with its runs' activity: an ingest, a status change", async () => {
    const projectTime = async (name: string) =>
      Date.parse((await listProjects(t.app, t.key)).find((p) => p.name === name)!.updatedAt);
    const created = await projectTime('my-ml-project');
    const idle = await projectTime('training');
    await sleep(20);
    const beforeIngest = Date.now();
    await ingestSeries(t.app, t.key, { runId: run.runId }, 0, 3, { loss: (s) => 1 / (1 + s) });
    const afterIngest = await projectTime('my-ml-project');
    expect(afterIngest).toBeGreaterThan(created);
    expect(afterIngest).toBeGreaterThanOrEqual(beforeIngest);
    expect(await projectTime('training')).toBe(idle);

    await sleep(20);
    const beforeStatus = Date.now();
    await update(t.app, t.key, '/api/runs/status/update', { runId: other.runId, status: 'COMPLETED' });
    expect(await projectTime('training')).toBeGreaterThanOrEqual(beforeStatus);
  });

  it('lists nothing for an organization without runs', async () => {
    const res = await call(t.app, 'GET', '/api/runs/projects', t.otherKey);
    expect(res.body).toEqual({ projects: [] });
  });
});

describe('details refusals', () => {
  const scenarios: Scenario[] = [
    {
      name: 'an unknown run id is a 404',
      method: 'GET',
      url: '/api/runs/details/987654',
      status: 404,
      code: 'NOT_FOUND',
    },
    { name: 'a run id that is not a number is a 400', method: 'GET', url: '/api/runs/details/abc', status: 400 },
    { name: 'a negative run id is a 400', method: 'GET', url: '/api/runs/details/-1', status: 400 },
    { name: 'a fractional run id is a 400', method: 'GET', url: '/api/runs/details/1.5', status: 400 },
    {
      name: 'a run id beyond the safe integers is a 400',
      method: 'GET',
      url: '/api/runs/details/99999999999999999999',
      status: 400,
    },
    {
      name: 'an unknown route is a 404 with the error shape',
      method: 'GET',
      url: '/api/runs/details/1/extra',
      status: 404,
    },
  ];
  itScenarios(t, scenarios);
});
