import { beforeEach, describe, expect, it } from 'vitest';
import { call, useTestApp } from '../helpers/test-app.js';
import {
  createRun,
  expectError,
  getDetails,
  getHistory,
  itScenarios,
  scenarioRows,
  type Scenario,
  setStatus,
  sleep,
} from '../helpers/run-api.js';

const t = useTestApp();
let runId: number;
beforeEach(async () => {
  runId = (await createRun(t.app, t.key, { runName: 'r', projectName: 'p' })).runId;
});

const UPDATE = '/api/runs/status/update';
const statusCall = (status: string, extra: Record<string, unknown> = {}) =>
  call(t.app, 'POST', UPDATE, t.key, { runId, status, ...extra });

describe('POST /api/runs/status/update', () => {
  it('answers {success: true} and changes the status with one timeline event', async () => {
    const res = await statusCall('COMPLETED');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect((await getDetails(t.app, t.key, runId)).status).toBe('COMPLETED');
    const events = await getHistory(t.app, t.key, runId);
    expect(events.map((e) => [e.fromStatus, e.toStatus, e.source])).toEqual([
      [null, 'RUNNING', 'api'],
      ['RUNNING', 'COMPLETED', 'api'],
    ]);
  });

  it('8 parallel identical COMPLETED writes give exactly one timeline event', async () => {
    const replies = await Promise.all(Array.from({ length: 8 }, () => statusCall('COMPLETED')));
    for (const r of replies) expect(r.body).toEqual({ success: true });
    const events = await getHistory(t.app, t.key, runId);
    expect(events.filter((e) => e.toStatus === 'COMPLETED')).toHaveLength(1);
    expect(events).toHaveLength(2);
  });

  for (const position of [0, 1, 3, 5, 7]) {
    it(`7 COMPLETED racing 1 FAILED at position ${position} end FAILED`, async () => {
      for (let round = 0; round < 3; round++) {
        const id = (await createRun(t.app, t.key, { runName: `race-${round}`, projectName: 'race' })).runId;
        const statuses = Array.from({ length: 8 }, (_, i) => (i === position ? 'FAILED' : 'COMPLETED'));
        const replies = await Promise.all(
          statuses.map((status) => call(t.app, 'POST', UPDATE, t.key, { runId: id, status })),
        );
        for (const r of replies) expect(r.body).toEqual({ success: true });
        expect((await getDetails(t.app, t.key, id)).status).toBe('FAILED');
        const events = await getHistory(t.app, t.key, id);
        expect(events.filter((e) => e.toStatus === 'FAILED')).toHaveLength(1);
        expect(events.filter((e) => e.toStatus === 'COMPLETED').length).toBeLessThanOrEqual(1);
        expect(events.at(-1)!.toStatus).toBe('FAILED');
      }
    });
  }

  it('FAILED then COMPLETED stays FAILED and records nothing', async () => {
    await setStatus(t.app, t.key, runId, 'FAILED', { statusMetadata: '{"reason":"oom"}', loggerSettings: '{"a":1}' });
    const before = await getDetails(t.app, t.key, runId);
    const eventsBefore = await getHistory(t.app, t.key, runId);
    await sleep(5);
    const res = await statusCall('COMPLETED', { statusMetadata: '{"reason":"done"}', loggerSettings: '{"a":2}' });
    expect(res.body).toEqual({ success: true });
    const after = await getDetails(t.app, t.key, runId);
    expect(after.status).toBe('FAILED');
    expect(after.statusMetadata).toEqual({ reason: 'oom' });
    expect(after.loggerSettings).toEqual({ a: 1 });
    expect(after.statusUpdated).toBe(before.statusUpdated);
    expect(await getHistory(t.app, t.key, runId)).toEqual(eventsBefore);
  });

  it('allows a terminal run to go back to RUNNING', async () => {
    await setStatus(t.app, t.key, runId, 'FAILED');
    await setStatus(t.app, t.key, runId, 'RUNNING');
    expect((await getDetails(t.app, t.key, runId)).status).toBe('RUNNING');
    expect((await getHistory(t.app, t.key, runId)).at(-1)).toMatchObject({
      fromStatus: 'FAILED',
      toStatus: 'RUNNING',
      source: 'api',
    });
  });

  it('records no event for a write of the current status, and statusUpdated does not move', async () => {
    await setStatus(t.app, t.key, runId, 'COMPLETED');
    const before = await getDetails(t.app, t.key, runId);
    await sleep(10);
    await setStatus(t.app, t.key, runId, 'COMPLETED');
    const after = await getDetails(t.app, t.key, runId);
    expect(after.statusUpdated).toBe(before.statusUpdated);
    expect(await getHistory(t.app, t.key, runId)).toHaveLength(2);
  });

  it('moves statusUpdated on a real transition', async () => {
    const before = await getDetails(t.app, t.key, runId);
    await sleep(10);
    await setStatus(t.app, t.key, runId, 'COMPLETED');
    const after = await getDetails(t.app, t.key, runId);
    expect(Date.parse(after.statusUpdated)).toBeGreaterThan(Date.parse(before.statusUpdated));
  });
});

describe('terminal status precedence FAILED > CANCELLED > TERMINATED > COMPLETED', () => {
  const rank: Record<string, number> = { COMPLETED: 1, TERMINATED: 2, CANCELLED: 3, FAILED: 4 };
  const terminal = Object.keys(rank);
  for (const from of terminal) {
    for (const to of terminal) {
      if (from === to) continue;
      const wins = rank[to]! > rank[from]!;
      it(`${to} written over ${from} ${wins ? 'replaces it with an event' : 'changes nothing'}`, async () => {
        await setStatus(t.app, t.key, runId, from);
        const eventsBefore = await getHistory(t.app, t.key, runId);
        await setStatus(t.app, t.key, runId, to);
        expect((await getDetails(t.app, t.key, runId)).status).toBe(wins ? to : from);
        const events = await getHistory(t.app, t.key, runId);
        if (wins) {
          expect(events).toHaveLength(eventsBefore.length + 1);
          expect(events.at(-1)).toMatchObject({ fromStatus: from, toStatus: to, source: 'api' });
        } else {
          expect(events).toEqual(eventsBefore);
        }
      });
    }
  }
});

describe('statusMetadata and loggerSettings', () => {
  it('statusMetadata: a JSON string replaces, absent keeps, null clears', async () => {
    await setStatus(t.app, t.key, runId, 'RUNNING', { statusMetadata: '{"phase":"warmup","n":1}' });
    expect((await getDetails(t.app, t.key, runId)).statusMetadata).toEqual({ phase: 'warmup', n: 1 });
    await setStatus(t.app, t.key, runId, 'RUNNING', { statusMetadata: '{"phase":"train"}' });
    expect((await getDetails(t.app, t.key, runId)).statusMetadata).toEqual({ phase: 'train' });
    await setStatus(t.app, t.key, runId, 'RUNNING');
    expect((await getDetails(t.app, t.key, runId)).statusMetadata).toEqual({ phase: 'train' });
    await setStatus(t.app, t.key, runId, 'RUNNING', { statusMetadata: null });
    expect((await getDetails(t.app, t.key, runId)).statusMetadata).toBeNull();
  });

  it('stores the statusMetadata of a transition on its event', async () => {
    await setStatus(t.app, t.key, runId, 'FAILED', { statusMetadata: '{"error":"CUDA OOM"}' });
    expect((await getHistory(t.app, t.key, runId)).at(-1)).toMatchObject({
      toStatus: 'FAILED',
      metadata: { error: 'CUDA OOM' },
    });
    expect((await getDetails(t.app, t.key, runId)).statusMetadata).toEqual({ error: 'CUDA OOM' });
  });

  it('loggerSettings are deep-merged into the stored settings', async () => {
    const ref = await createRun(t.app, t.key, {
      runName: 'ls',
      projectName: 'p',
      loggerSettings: JSON.stringify({ console: { level: 'info', capture: true }, tags: ['a'] }),
    });
    await setStatus(t.app, t.key, ref.runId, 'RUNNING', {
      loggerSettings: JSON.stringify({ console: { level: 'debug' }, tags: ['b'], extra: 1 }),
    });
    expect((await getDetails(t.app, t.key, ref.runId)).loggerSettings).toEqual({
      console: { level: 'debug', capture: true },
      tags: ['b'],
      extra: 1,
    });
  });

  it('absent or null loggerSettings keep the stored settings', async () => {
    await setStatus(t.app, t.key, runId, 'RUNNING', { loggerSettings: '{"x":1}' });
    await setStatus(t.app, t.key, runId, 'RUNNING', { loggerSettings: null });
    await setStatus(t.app, t.key, runId, 'COMPLETED');
    expect((await getDetails(t.app, t.key, runId)).loggerSettings).toEqual({ x: 1 });
  });
});

describe('GET /api/runs/status/history', () => {
  it('answers {runId, events} with every event field, oldest first', async () => {
    await setStatus(t.app, t.key, runId, 'COMPLETED', { statusMetadata: '{"k":1}' });
    await setStatus(t.app, t.key, runId, 'RUNNING');
    await setStatus(t.app, t.key, runId, 'CANCELLED');
    const res = await call(t.app, 'GET', `/api/runs/status/history?runId=${runId}`, t.key);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['events', 'runId']);
    const events = res.body.events as Record<string, unknown>[];
    for (const e of events) {
      expect(Object.keys(e).sort()).toEqual([
        'actor',
        'createdAt',
        'fromStatus',
        'id',
        'metadata',
        'runId',
        'source',
        'toStatus',
      ]);
      expect(e.runId).toBe(runId);
      // Who wrote it: the key's user and the key.
      expect(e.actor).toEqual({ userId: expect.any(Number), keyId: expect.any(Number) });
      expect(e.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
    expect(events.map((e) => [e.fromStatus, e.toStatus, e.metadata])).toEqual([
      [null, 'RUNNING', null],
      ['RUNNING', 'COMPLETED', { k: 1 }],
      ['COMPLETED', 'RUNNING', null],
      ['RUNNING', 'CANCELLED', null],
    ]);
    const ids = events.map((e) => e.id as number);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    const times = events.map((e) => Date.parse(e.createdAt as string));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  const scenarios: Scenario[] = [
    {
      name: 'an unknown run is a 404',
      method: 'GET',
      url: '/api/runs/status/history?runId=987654',
      status: 404,
      code: 'NOT_FOUND',
    },
    { name: 'a missing runId is a 400', method: 'GET', url: '/api/runs/status/history', status: 400 },
    {
      name: 'a runId that is not a number is a 400',
      method: 'GET',
      url: '/api/runs/status/history?runId=abc',
      status: 400,
    },
    { name: 'an empty runId is a 400', method: 'GET', url: '/api/runs/status/history?runId=', status: 400 },
    { name: 'a negative runId is a 400', method: 'GET', url: '/api/runs/status/history?runId=-1', status: 400 },
    { name: 'a fractional runId is a 400', method: 'GET', url: '/api/runs/status/history?runId=1.5', status: 400 },
  ];
  itScenarios(t, scenarios);
});

describe('status/update bad input', () => {
  const row = scenarioRows('POST', UPDATE);
  const scenarios: Scenario[] = [
    row('an unknown status is a 400', () => ({ runId, status: 'DONE' }), 400),
    row('a lower-case status is a 400', () => ({ runId, status: 'completed' }), 400),
    row('a missing status is a 400', () => ({ runId }), 400),
    row('a missing runId is a 400', () => ({ status: 'COMPLETED' }), 400),
    row(
      'statusMetadata that is not JSON is a 400',
      () => ({ runId, status: 'COMPLETED', statusMetadata: '{oops' }),
      400,
    ),
    row(
      'loggerSettings that are not JSON are a 400',
      () => ({ runId, status: 'COMPLETED', loggerSettings: 'nope{' }),
      400,
    ),
    row(
      'statusMetadata given as an object instead of a string is a 400',
      () => ({ runId, status: 'COMPLETED', statusMetadata: { a: 1 } }),
      400,
    ),
    row('an unknown run is a 404', () => ({ runId: 987654, status: 'COMPLETED' }), 404),
  ];
  itScenarios(t, scenarios, {
    after: async () => {
      expect((await getDetails(t.app, t.key, runId)).status).toBe('RUNNING');
      expect(await getHistory(t.app, t.key, runId)).toHaveLength(1);
    },
  });

  it('an unknown status error names the allowed values', async () => {
    const res = await statusCall('DONE');
    expectError(res, 400);
    expect(res.body.error).toContain('status');
  });
});
