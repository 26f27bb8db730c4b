import { beforeEach, describe, expect, it } from 'vitest';
import { createRun, expectError, itScenarios, type Scenario, setStatus } from '../helpers/run-api.js';
import { call, useTestApp } from '../helpers/test-app.js';
import { getOk, ISO_MS } from '../helpers/ingest-api.js';
import type { RunRef } from '../../src/api/schemas/runs.js';

const t = useTestApp();
let run: RunRef;
beforeEach(async () => {
  run = await createRun(t.app, t.key, { runName: 'r', projectName: 'beat' });
});

/** The headers the Python client puts on every API call once it has a run. */
const clientHeaders = () => ({
  'x-run-id': String(run.runId),
  'x-run-name': 'r',
  'x-project-name': 'beat',
  'user-agent': 'pluto',
});

interface AlertView {
  id: number;
  level: string | null;
  title: string | null;
  body: string | null;
  time: string;
  payload: unknown;
}

describe('POST /api/runs/trigger (heartbeat)', () => {
  it('answers the run status, RUNNING for a new run', async () => {
    const res = await call(t.app, 'POST', '/api/runs/trigger', t.key, { runId: run.runId }, clientHeaders());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'RUNNING' });
  });

  it('answers CANCELLED once the run was cancelled, so the client can stop', async () => {
    await setStatus(t.app, t.key, run.runId, 'CANCELLED');
    expect((await call(t.app, 'POST', '/api/runs/trigger', t.key, { runId: run.runId })).body).toEqual({
      status: 'CANCELLED',
    });
  });

  it('answers every heartbeat of a busy client', async () => {
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => call(t.app, 'POST', '/api/runs/trigger', t.key, { runId: run.runId })),
    );
    expect(replies.map((r) => r.status)).toEqual(Array.from({ length: 20 }, () => 200));
  });

  const scenarios: Scenario[] = [
    {
      name: 'answers 404 for an unknown run',
      method: 'POST',
      url: '/api/runs/trigger',
      body: { runId: 987_654 },
      status: 404,
    },
    {
      name: 'answers 400 for a runId that is not an integer',
      method: 'POST',
      url: '/api/runs/trigger',
      body: { runId: 'None' },
      status: 400,
    },
    { name: 'answers 400 without a runId', method: 'POST', url: '/api/runs/trigger', body: {}, status: 400 },
    {
      name: 'answers 404 for a run of another organization',
      method: 'POST',
      url: '/api/runs/trigger',
      body: () => ({ runId: run.runId }),
      status: 404,
      asOther: true,
    },
  ];
  itScenarios(t, scenarios);
});

describe('POST /api/runs/alert and GET /api/runs/alerts', () => {
  /** The alert body `make_compat_alert_v1` builds: timestamp in ms, email and url extras. */
  const clientAlert = (title: string, level: string, ms: number) => ({
    runId: run.runId,
    alert: { timestamp: ms, level, title, body: `${title} body`, email: true, url: null },
  });

  it('answers {status: "success"} and makes the alert readable', async () => {
    const res = await call(
      t.app,
      'POST',
      '/api/runs/alert',
      t.key,
      clientAlert('loss diverged', 'WARN', 1_700_000_000_123),
      clientHeaders(),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ status: 'success' });
    const { runId, alerts } = await getOk<{ runId: number; alerts: AlertView[] }>(
      t.app,
      t.key,
      `/api/runs/alerts?runId=${run.runId}`,
    );
    expect(runId).toBe(run.runId);
    expect(alerts).toEqual([
      {
        id: expect.any(Number),
        level: 'WARN',
        title: 'loss diverged',
        body: 'loss diverged body',
        time: '2023-11-14T22:13:20.123Z',
        payload: expect.objectContaining({ title: 'loss diverged', email: true }),
      },
    ]);
  });

  it('lists alerts oldest first', async () => {
    await call(t.app, 'POST', '/api/runs/alert', t.key, clientAlert('first', 'INFO', 1_000_000_000_000));
    await call(t.app, 'POST', '/api/runs/alert', t.key, clientAlert('second', 'ERROR', 1_000_000_001_000));
    const { alerts } = await getOk<{ alerts: AlertView[] }>(t.app, t.key, `/api/runs/alerts?runId=${run.runId}`);
    expect(alerts.map((a) => a.title)).toEqual(['first', 'second']);
    for (const a of alerts) expect(a.time).toMatch(ISO_MS);
  });

  it('accepts an alert with explicit nulls', async () => {
    const res = await call(t.app, 'POST', '/api/runs/alert', t.key, {
      runId: run.runId,
      alert: { timestamp: null, level: null, title: null, body: null },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('answers 404 for an unknown run and a run of another organization, storing nothing', async () => {
    expectError(
      await call(t.app, 'POST', '/api/runs/alert', t.key, { ...clientAlert('x', 'INFO', 1), runId: 987_654 }),
      404,
    );
    expectError(await call(t.app, 'POST', '/api/runs/alert', t.otherKey, clientAlert('x', 'INFO', 1)), 404);
    expectError(await call(t.app, 'GET', `/api/runs/alerts?runId=${run.runId}`, t.otherKey), 404);
    expect((await getOk<{ alerts: AlertView[] }>(t.app, t.key, `/api/runs/alerts?runId=${run.runId}`)).alerts).toEqual(
      [],
    );
  });
});
