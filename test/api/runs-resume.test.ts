import { beforeEach, describe, expect, it } from 'vitest';
import { call, useTestApp } from '../helpers/test-app.js';
import {
  createRun,
  getDetails,
  getHistory,
  itScenarios,
  type Scenario,
  scenarioRows,
  setStatus,
} from '../helpers/run-api.js';
import type { RunRef } from '../../src/api/schemas/runs.js';

const t = useTestApp();
let run: RunRef;
beforeEach(async () => {
  run = await createRun(t.app, t.key, { runName: 'r', projectName: 'my-ml-project', externalId: 'ext-1' });
  await createRun(t.app, t.key, { runName: 'other', projectName: 'training' });
});

const RESUME = '/api/runs/resume';

describe('POST /api/runs/resume: selectors', () => {
  const selectors: { name: string; body: () => Record<string, unknown> }[] = [
    { name: 'by runId', body: () => ({ runId: run.runId }) },
    { name: 'by displayId', body: () => ({ displayId: run.displayId }) },
    { name: 'by a lower-case displayId', body: () => ({ displayId: run.displayId.toLowerCase() }) },
    {
      name: 'by displayId with its own projectName',
      body: () => ({ displayId: run.displayId, projectName: 'my-ml-project' }),
    },
    { name: 'by externalId and projectName', body: () => ({ externalId: 'ext-1', projectName: 'my-ml-project' }) },
    {
      name: 'by runId with explicit nulls for the other selectors',
      body: () => ({ runId: run.runId, displayId: null, externalId: null }),
    },
  ];
  for (const s of selectors) {
    it(`resumes a COMPLETED run ${s.name}, answering resumed true, with a resume event`, async () => {
      await setStatus(t.app, t.key, run.runId, 'COMPLETED');
      const res = await call(t.app, 'POST', RESUME, t.key, s.body());
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({
        runId: run.runId,
        number: run.number,
        displayId: run.displayId,
        projectName: 'my-ml-project',
        organizationSlug: t.org,
        url: run.url,
        resumed: true,
        forkedFromRunId: null,
        forkStep: null,
      });
      expect((await getDetails(t.app, t.key, run.runId)).status).toBe('RUNNING');
      expect((await getHistory(t.app, t.key, run.runId)).at(-1)).toMatchObject({
        fromStatus: 'COMPLETED',
        toStatus: 'RUNNING',
        source: 'resume',
      });
    });
  }

  it('resumes a RUNNING run without recording an event', async () => {
    const res = await call(t.app, 'POST', RESUME, t.key, { runId: run.runId });
    expect(res.body).toMatchObject({ runId: run.runId, resumed: true });
    expect(await getHistory(t.app, t.key, run.runId)).toHaveLength(1);
  });

  it('resumes a FAILED run too: resume is not an api write subject to precedence', async () => {
    await setStatus(t.app, t.key, run.runId, 'FAILED');
    await call(t.app, 'POST', RESUME, t.key, { runId: run.runId });
    expect((await getDetails(t.app, t.key, run.runId)).status).toBe('RUNNING');
  });
});

describe('POST /api/runs/resume: refusals', () => {
  const row = scenarioRows('POST', RESUME);
  const cases: Scenario[] = [
    row('no selector is a 400', () => ({}), 400),
    row('only a projectName is a 400', () => ({ projectName: 'my-ml-project' }), 400),
    row('runId and displayId together are a 400', () => ({ runId: run.runId, displayId: run.displayId }), 400),
    row(
      'runId and externalId together are a 400',
      () => ({ runId: run.runId, externalId: 'ext-1', projectName: 'my-ml-project' }),
      400,
    ),
    row(
      'displayId and externalId together are a 400',
      () => ({ displayId: run.displayId, externalId: 'ext-1', projectName: 'my-ml-project' }),
      400,
    ),
    row('externalId without projectName is a 400', () => ({ externalId: 'ext-1' }), 400),
    row('a malformed displayId is a 400', () => ({ displayId: 'not a display id' }), 400),
    row('a runId given as a string is a 400', () => ({ runId: String(run.runId) }), 400),
    row('an unknown runId is a 404', () => ({ runId: 987654 }), 404),
    row('an unknown displayId is a 404', () => ({ displayId: 'MMP-99' }), 404),
    row('an externalId in another project is a 404', () => ({ externalId: 'ext-1', projectName: 'training' }), 404),
    row('an unknown externalId is a 404', () => ({ externalId: 'nope', projectName: 'my-ml-project' }), 404),
    row(
      'a displayId with a projectName that does not own it is a 404',
      () => ({ displayId: run.displayId, projectName: 'training' }),
      404,
    ),
    row(
      'a runId with a projectName that does not own it is a 404',
      () => ({ runId: run.runId, projectName: 'training' }),
      404,
    ),
  ];
  itScenarios(t, cases, {
    before: () => setStatus(t.app, t.key, run.runId, 'COMPLETED'),
    after: async () => expect((await getDetails(t.app, t.key, run.runId)).status).toBe('COMPLETED'),
  });
});
