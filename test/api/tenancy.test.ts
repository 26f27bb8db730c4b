import { beforeEach, describe, expect, it } from 'vitest';
import { encodeRunId } from '../../src/domain/sqid.js';
import { call, useTestApp } from '../helpers/test-app.js';
import { createRun, expectError, getDetails, getHistory, listProjects, setStatus, update } from '../helpers/run-api.js';
import type { RunDetails, RunRef } from '../../src/api/schemas/runs.js';
import type { StatusEvent } from '../../src/api/schemas/status-events.js';

const t = useTestApp();
let run: RunRef;
let snapshot: { details: RunDetails; history: StatusEvent[]; graph: unknown; projects: unknown };

const PROJECT = 'shared-name';

async function takeSnapshot(): Promise<typeof snapshot> {
  return {
    details: await getDetails(t.app, t.key, run.runId),
    history: await getHistory(t.app, t.key, run.runId),
    graph: (await call(t.app, 'GET', `/api/runs/modelGraph?runId=${run.runId}`, t.key)).body,
    projects: await listProjects(t.app, t.key),
  };
}

beforeEach(async () => {
  run = await createRun(t.app, t.key, {
    runName: 'secret',
    projectName: PROJECT,
    externalId: 'ext-acme',
    tags: ['mine'],
    config: '{"lr":0.1}',
  });
  await update(t.app, t.key, '/api/runs/notes/update', { runId: run.runId, notes: 'private' });
  await update(t.app, t.key, '/api/runs/logName/add', { runId: run.runId, logName: ['loss'], logType: 'METRIC' });
  await update(t.app, t.key, '/api/runs/modelGraph/create', {
    runId: run.runId,
    graph: { format: 'torch', nodes: { a: { edges: [] } } },
  });
  await setStatus(t.app, t.key, run.runId, 'COMPLETED', { statusMetadata: '{"by":"acme"}' });
  snapshot = await takeSnapshot();
});

/** Every run endpoint, aimed at a run id, as the other organization would call it. */
const attempts: {
  name: string;
  method: 'GET' | 'POST';
  url: (id: number, displayId: string) => string;
  body?: (id: number, displayId: string) => unknown;
}[] = [
  { name: 'run details', method: 'GET', url: (id) => `/api/runs/details/${id}` },
  { name: 'details by display id', method: 'GET', url: (_id, d) => `/api/runs/details/by-display-id/${d}` },
  {
    name: 'details by display id with the project name',
    method: 'GET',
    url: (_id, d) => `/api/runs/details/by-display-id/${d}?projectName=${PROJECT}`,
  },
  {
    name: 'status update',
    method: 'POST',
    url: () => '/api/runs/status/update',
    body: (id) => ({ runId: id, status: 'FAILED', statusMetadata: '{"by":"rival"}' }),
  },
  {
    name: 'status update to RUNNING',
    method: 'POST',
    url: () => '/api/runs/status/update',
    body: (id) => ({ runId: id, status: 'RUNNING' }),
  },
  { name: 'status history', method: 'GET', url: (id) => `/api/runs/status/history?runId=${id}` },
  {
    name: 'notes update',
    method: 'POST',
    url: () => '/api/runs/notes/update',
    body: (id) => ({ runId: id, notes: 'pwned' }),
  },
  {
    name: 'notes clear',
    method: 'POST',
    url: () => '/api/runs/notes/update',
    body: (id) => ({ runId: id, notes: null }),
  },
  {
    name: 'config update',
    method: 'POST',
    url: () => '/api/runs/config/update',
    body: (id) => ({ runId: id, config: '{"lr":9}' }),
  },
  {
    name: 'tags update',
    method: 'POST',
    url: () => '/api/runs/tags/update',
    body: (id) => ({ runId: id, tags: ['theirs'] }),
  },
  {
    name: 'logName add',
    method: 'POST',
    url: () => '/api/runs/logName/add',
    body: (id) => ({ runId: id, logName: ['x'], logType: 'TEXT' }),
  },
  {
    name: 'model graph create',
    method: 'POST',
    url: () => '/api/runs/modelGraph/create',
    body: (id) => ({ runId: id, graph: { format: 'evil', nodes: {} } }),
  },
  { name: 'model graph read', method: 'GET', url: (id) => `/api/runs/modelGraph?runId=${id}` },
  { name: 'resume by runId', method: 'POST', url: () => '/api/runs/resume', body: (id) => ({ runId: id }) },
  { name: 'resume by displayId', method: 'POST', url: () => '/api/runs/resume', body: (_id, d) => ({ displayId: d }) },
  {
    name: 'resume by externalId',
    method: 'POST',
    url: () => '/api/runs/resume',
    body: () => ({ externalId: 'ext-acme', projectName: PROJECT }),
  },
  { name: 'SQID decode', method: 'GET', url: (id) => `/api/runs/${encodeRunId(id)}` },
  {
    name: 'fork from the run',
    method: 'POST',
    url: () => '/api/runs/create',
    body: (id) => ({
      runName: 'thief',
      projectName: PROJECT,
      forkRunId: id,
      forkStep: 0,
      inheritConfig: true,
      inheritTags: true,
    }),
  },
];

describe('another organization', () => {
  for (const a of attempts) {
    it(`gets a 404 from ${a.name} of a foreign run, the same answer as for a run that does not exist, and changes nothing`, async () => {
      const foreign = await call(
        t.app,
        a.method,
        a.url(run.runId, run.displayId),
        t.otherKey,
        a.body?.(run.runId, run.displayId),
      );
      expectError(foreign, 404, 'NOT_FOUND');
      const missing = await call(t.app, a.method, a.url(987654, 'ZZZ-9'), t.otherKey, a.body?.(987654, 'ZZZ-9'));
      expect(missing.status).toBe(404);
      expect(missing.body.code).toBe(foreign.body.code);
      expect(JSON.stringify(foreign.body)).not.toContain('secret');
      expect(await takeSnapshot()).toEqual(snapshot);
      expect(await listProjects(t.app, t.otherKey)).toEqual([]);
    });
  }

  it('sees an empty project list', async () => {
    expect(await listProjects(t.app, t.otherKey)).toEqual([]);
  });

  it('gets its own new run when it creates with the same project name and externalId, leaving the first run alone', async () => {
    const theirs = await createRun(t.app, t.otherKey, {
      runName: 'theirs',
      projectName: PROJECT,
      externalId: 'ext-acme',
      config: '{"lr":5}',
    });
    expect(theirs).toMatchObject({ resumed: false, number: 1, organizationSlug: t.otherOrg });
    expect(theirs.runId).not.toBe(run.runId);
    expect(theirs.url).toContain(`/o/${t.otherOrg}/`);
    expect(await takeSnapshot()).toEqual(snapshot);
    expect((await listProjects(t.app, t.otherKey)).map((p) => [p.name, p.runCount])).toEqual([[PROJECT, 1]]);
    expect((await getDetails(t.app, t.otherKey, theirs.runId)).config).toEqual({ lr: 5 });
  });

  it('cannot read its own runs through the first organization and vice versa', async () => {
    const theirs = await createRun(t.app, t.otherKey, { runName: 'theirs', projectName: 'x' });
    expectError(await call(t.app, 'GET', `/api/runs/details/${theirs.runId}`, t.key), 404, 'NOT_FOUND');
    expect((await getDetails(t.app, t.otherKey, theirs.runId)).name).toBe('theirs');
  });

  it("does not see the first organization's display ids even when its own project has the same prefix", async () => {
    const theirs = await createRun(t.app, t.otherKey, { runName: 'theirs', projectName: PROJECT });
    expect(theirs.displayId).toBe(run.displayId);
    const res = await call(t.app, 'GET', `/api/runs/details/by-display-id/${run.displayId}`, t.otherKey);
    expect(res.body).toMatchObject({ id: theirs.runId, name: 'theirs' });
    const mine = await call(t.app, 'GET', `/api/runs/details/by-display-id/${run.displayId}`, t.key);
    expect(mine.body).toMatchObject({ id: run.runId, name: 'secret' });
  });

  it('cannot fork into its own project from a run of the first organization', async () => {
    await createRun(t.app, t.otherKey, { runName: 'x', projectName: PROJECT });
    const res = await call(t.app, 'POST', '/api/runs/create', t.otherKey, {
      runName: 'thief',
      projectName: PROJECT,
      forkRunId: run.runId,
      forkStep: 0,
    });
    expectError(res, 404, 'NOT_FOUND');
    expect((await listProjects(t.app, t.otherKey))[0]!.runCount).toBe(1);
  });
});
