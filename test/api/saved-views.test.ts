/**
 * Saved views (docs/api.md §12): named workspace states of a project, shared with its
 * organization, one of them the project's default; bounded, checked, and another
 * organization's views are not there.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { SavedView, SavedViewList } from '../../src/api/schemas/saved-views.js';
import { createRun, expectError, itScenarios, scenarioRows, type Scenario } from '../helpers/run-api.js';
import { call, useTestApp } from '../helpers/test-app.js';

const t = useTestApp();

const STATE = { filters: [{ key: 'config.lr', op: '$gt', value: 0.01 }], sort: '-summary_metrics.val/acc', panels: 3 };

async function save(body: Record<string, unknown>, key = t.key): Promise<SavedView> {
  const res = await call(t.app, 'POST', '/api/views', key, { projectName: 'vision', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as unknown as SavedView;
}

async function list(projectName = 'vision', key = t.key): Promise<SavedViewList> {
  const res = await call(t.app, 'GET', `/api/views?projectName=${encodeURIComponent(projectName)}`, key);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as unknown as SavedViewList;
}

beforeEach(async () => {
  await createRun(t.app, t.key, { runName: 'r', projectName: 'vision' });
});

describe('saving and reading views', () => {
  it('saves a view and reads it back with its state, creator and times', async () => {
    const view = await save({ name: 'lr sweep', state: STATE });
    expect(view).toMatchObject({ projectName: 'vision', name: 'lr sweep', isDefault: false, state: STATE });
    expect(view.createdBy).toEqual(expect.any(String));
    expect(Date.parse(view.createdAt)).toBeGreaterThan(0);
    const again = await call(t.app, 'GET', `/api/views/${view.id}`, t.key);
    expect(again.body).toEqual(view);
  });

  it('lists the default first, then by name, without state', async () => {
    await save({ name: 'b', state: {} });
    await save({ name: 'a', state: {} });
    await save({ name: 'c', state: STATE, isDefault: true });
    const answer = await list();
    expect(answer.projectName).toBe('vision');
    expect(answer.views.map((v) => [v.name, v.isDefault])).toEqual([
      ['c', true],
      ['a', false],
      ['b', false],
    ]);
    expect(answer.views.every((v) => !('state' in v))).toBe(true);
  });

  it('an empty project lists no views', async () => {
    expect((await list()).views).toEqual([]);
  });

  it('keeps one default per project: a new default takes the mark from the old', async () => {
    const first = await save({ name: 'first', state: {}, isDefault: true });
    const second = await save({ name: 'second', state: {}, isDefault: true });
    expect((await list()).views.filter((v) => v.isDefault).map((v) => v.id)).toEqual([second.id]);
    const res = await call(t.app, 'PATCH', `/api/views/${first.id}`, t.key, { isDefault: true });
    expect(res.body).toMatchObject({ id: first.id, isDefault: true });
    expect((await list()).views.filter((v) => v.isDefault).map((v) => v.id)).toEqual([first.id]);
  });

  it('a default in one project leaves another project’s default alone', async () => {
    await createRun(t.app, t.key, { runName: 'r', projectName: 'audio' });
    const audio = await save({ projectName: 'audio', name: 'main', state: {}, isDefault: true });
    await save({ name: 'main', state: {}, isDefault: true });
    expect((await list('audio')).views).toEqual([expect.objectContaining({ id: audio.id, isDefault: true })]);
  });
});

describe('changing and deleting views', () => {
  it('PATCH changes only the fields it is given and moves updatedAt', async () => {
    const view = await save({ name: 'v', state: STATE });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const res = await call(t.app, 'PATCH', `/api/views/${view.id}`, t.key, { name: 'renamed' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'renamed', state: STATE, isDefault: false, createdAt: view.createdAt });
    expect(Date.parse(res.body.updatedAt as string)).toBeGreaterThan(Date.parse(view.updatedAt));
    const state = { panels: 1 };
    const changed = await call(t.app, 'PATCH', `/api/views/${view.id}`, t.key, { state, isDefault: true });
    expect(changed.body).toMatchObject({ name: 'renamed', state, isDefault: true });
  });

  it('renaming to a name the project has is a 409 and changes nothing', async () => {
    await save({ name: 'taken', state: {} });
    const view = await save({ name: 'mine', state: STATE });
    const res = await call(t.app, 'PATCH', `/api/views/${view.id}`, t.key, { name: 'taken' });
    expectError(res, 409, 'CONFLICT');
    expect(res.body.error).toMatch(/taken/);
    expect((await call(t.app, 'GET', `/api/views/${view.id}`, t.key)).body).toEqual(view);
  });

  it('DELETE removes the view: a 204, then 404s', async () => {
    const view = await save({ name: 'gone', state: {} });
    const res = await call(t.app, 'DELETE', `/api/views/${view.id}`, t.key);
    expect(res.status).toBe(204);
    expectError(await call(t.app, 'GET', `/api/views/${view.id}`, t.key), 404, 'NOT_FOUND');
    expectError(await call(t.app, 'DELETE', `/api/views/${view.id}`, t.key), 404, 'NOT_FOUND');
    expect((await list()).views).toEqual([]);
  });

  it('a project holds at most 500 views', async () => {
    for (let i = 0; i < 500; i++) await save({ name: `v${i}`, state: {} });
    const res = await call(t.app, 'POST', '/api/views', t.key, { projectName: 'vision', name: 'one more', state: {} });
    expectError(res, 400, 'BAD_REQUEST');
    expect(res.body.error).toMatch(/500/);
  });
});

describe('another organization', () => {
  let viewId = 0;
  beforeEach(async () => {
    viewId = (await save({ name: 'private', state: STATE })).id;
  });

  const foreign = (name: string, method: Scenario['method'], body?: unknown): Scenario => ({
    name,
    method,
    url: () => `/api/views/${viewId}`,
    body,
    status: 404,
    code: 'NOT_FOUND',
    asOther: true,
  });

  itScenarios(
    t,
    [
      foreign('cannot read a view of this organization', 'GET'),
      foreign('cannot change it', 'PATCH', { name: 'mine now' }),
      foreign('cannot delete it', 'DELETE'),
      {
        name: 'cannot list the project’s views (its project is not there)',
        method: 'GET',
        url: '/api/views?projectName=vision',
        status: 404,
        code: 'NOT_FOUND',
        asOther: true,
      },
      {
        name: 'cannot save a view in the project',
        method: 'POST',
        url: '/api/views',
        body: { projectName: 'vision', name: 'x', state: {} },
        status: 404,
        code: 'NOT_FOUND',
        asOther: true,
      },
    ],
    {
      after: async () => {
        const view = await call(t.app, 'GET', `/api/views/${viewId}`, t.key);
        expect(view.body).toMatchObject({ name: 'private', state: STATE });
      },
    },
  );
});

describe('refused input', () => {
  const post = scenarioRows('POST', '/api/views');
  const big = { blob: 'x'.repeat(256 * 1024) };
  itScenarios(
    t,
    [
      post('no name', { projectName: 'vision', state: {} }, 400, 'VALIDATION_FAILED'),
      post('an empty name', { projectName: 'vision', name: '', state: {} }, 400, 'VALIDATION_FAILED'),
      post('a name with a trailing space', { projectName: 'vision', name: 'v ', state: {} }, 400, 'BAD_REQUEST'),
      post('a name with a bidi control', { projectName: 'vision', name: 'a\u202eb', state: {} }, 400, 'BAD_REQUEST'),
      post(
        'a name of 201 characters',
        { projectName: 'vision', name: 'n'.repeat(201), state: {} },
        400,
        'VALIDATION_FAILED',
      ),
      post('no state', { projectName: 'vision', name: 'v' }, 400, 'VALIDATION_FAILED'),
      post('a state that is an array', { projectName: 'vision', name: 'v', state: [1] }, 400, 'BAD_REQUEST'),
      post('a state that is null', { projectName: 'vision', name: 'v', state: null }, 400, 'BAD_REQUEST'),
      post('a state over 256 KiB', { projectName: 'vision', name: 'v', state: big }, 400, 'BAD_REQUEST'),
      post('isDefault that is not a boolean', { projectName: 'vision', name: 'v', state: {}, isDefault: 'yes' }, 400),
      post('an unknown project', { projectName: 'nope', name: 'v', state: {} }, 404, 'NOT_FOUND'),
      { name: 'a viewId that is not a number', method: 'GET', url: '/api/views/abc', status: 400 },
      { name: 'a viewId of 0', method: 'GET', url: '/api/views/0', status: 400 },
      { name: 'an unknown viewId', method: 'GET', url: '/api/views/999999', status: 404, code: 'NOT_FOUND' },
      { name: 'a list without projectName', method: 'GET', url: '/api/views', status: 400, code: 'VALIDATION_FAILED' },
      {
        name: 'an empty PATCH',
        method: 'PATCH',
        url: '/api/views/1',
        body: {},
        status: 400,
        code: 'VALIDATION_FAILED',
      },
    ],
    { after: async () => expect((await list()).views).toEqual([]) },
  );

  it('a name taken in the project is a 409; the first view stays', async () => {
    const first = await save({ name: 'same', state: STATE });
    const res = await call(t.app, 'POST', '/api/views', t.key, { projectName: 'vision', name: 'same', state: {} });
    expectError(res, 409, 'CONFLICT');
    expect((await call(t.app, 'GET', `/api/views/${first.id}`, t.key)).body).toEqual(first);
  });

  it('a state of exactly 256 KiB is kept whole', async () => {
    const state = { blob: 'y'.repeat(256 * 1024 - '{"blob":""}'.length) };
    const view = await save({ name: 'full', state });
    expect((await call(t.app, 'GET', `/api/views/${view.id}`, t.key)).body).toMatchObject({ state });
  });
});
