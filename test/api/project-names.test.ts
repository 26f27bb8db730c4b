/**
 * Project names: surrounding white space is refused when a project would be created (HTTP
 * drops it from X-Project-Name, so ingest could never name such a project), projects stored
 * with it before stay reachable, and every project's display id is one that
 * details/by-display-id reads back, whatever symbols, emoji or scripts its name holds.
 */
import { describe, expect, it } from 'vitest';
import { createRun, expectError, getDetails, listProjects } from '../helpers/run-api.js';
import { call, useTestApp } from '../helpers/test-app.js';
import { ingest } from '../helpers/ingest-api.js';

const t = useTestApp();

const METRIC = '{"time":1,"step":0,"data":{"loss":1}}';

describe('surrounding white space in a new project name', () => {
  it.each([
    ['a leading space', ' p'],
    ['a trailing space', 'p '],
    ['a leading tab', '\tp'],
    ['a trailing newline', 'p\n'],
    ['a trailing no-break space', 'p\u00a0'],
    ['only spaces', '   '],
  ])('a projectName with %s is a 400 naming the rule and creates nothing', async (_name, projectName) => {
    const res = await call(t.app, 'POST', '/api/runs/create', t.key, { runName: 'r', projectName });
    expectError(res, 400, 'BAD_REQUEST');
    expect(res.body.error).toMatch(/white space/);
    expect(await listProjects(t.app, t.key)).toEqual([]);
  });

  it('a projectName with inner spaces is accepted and takes ingest under that name', async () => {
    const run = await createRun(t.app, t.key, { runName: 'r', projectName: 'deep learning lab' });
    const res = await ingest(t.app, t.key, 'metrics', { runId: run.runId, projectName: 'deep learning lab' }, METRIC);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});

describe('a project stored with a trailing space before the rule', () => {
  /** Creates run "r" in project "p " straight in the store, as an older server did. */
  async function legacyRun(): Promise<number> {
    const orgId = await t.stores.metadata.ensureOrganization(t.org, Date.now());
    const now = Date.now();
    const { run } = await t.stores.metadata.createRun({
      orgId,
      projectName: 'p ',
      name: 'r',
      externalId: null,
      tags: [],
      config: null,
      configPatch: null,
      systemMetadata: null,
      loggerSettings: null,
      createdAt: now,
      updatedAt: now,
      fork: null,
    });
    return run.id;
  }

  it.each([
    ['"p " (HTTP itself drops the space on the wire)', 'p '],
    ['"p"', 'p'],
  ])('takes ingest with X-Project-Name %s', async (_name, projectName) => {
    const runId = await legacyRun();
    const res = await ingest(t.app, t.key, 'metrics', { runId, projectName }, METRIC);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await getDetails(t.app, t.key, runId)).logNames.map((l) => l.logName)).toEqual(['loss']);
  });

  it('is still found by its exact name in lookups', async () => {
    const runId = await legacyRun();
    const res = await call(t.app, 'GET', `/api/runs/statistics?runId=${runId}&projectName=p%20`, t.key);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.projectName).toBe('p ');
  });

  it('still refuses X-Project-Name of another project', async () => {
    const runId = await legacyRun();
    expectError(await ingest(t.app, t.key, 'metrics', { runId, projectName: 'q' }, METRIC), 400, 'BAD_REQUEST');
  });
});

describe('display ids of projects named with symbols, emoji and other scripts', () => {
  it.each([
    ['#hash'],
    ['@@'],
    ['😀 party'],
    ['🚀'],
    ['C++ lib'],
    ["don't stop"],
    ['école'],
    ['Ωmega-ß'],
    ['ΐ-test'],
    ['机器学习'],
    ['데이터 분석'],
  ])('the display id of project %s is letters and digits and finds its run', async (projectName) => {
    const run = await createRun(t.app, t.key, { runName: 'r', projectName });
    expect(run.displayId).toMatch(/^[\p{L}\p{N}]{1,4}-1$/u);
    const url = `/api/runs/details/by-display-id/${encodeURIComponent(run.displayId)}`;
    const res = await call(t.app, 'GET', `${url}?projectName=${encodeURIComponent(projectName)}`, t.key);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: run.runId, displayId: run.displayId, projectName });
  });
});
