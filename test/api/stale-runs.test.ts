import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { App } from '../../src/api/app-types.js';
import { livenessThrottleMs } from '../../src/services/liveness.js';
import { sweepStaleRuns } from '../../src/services/stale-runs.js';
import { call, makeTestApp, type TestApp } from '../helpers/test-app.js';
import { createRun, getDetails, getHistory, setStatus, sleep } from '../helpers/run-api.js';
import { ingestOk, metricLine, pyNdjson } from '../helpers/ingest-api.js';

/** A short stale time, so the rule is exercised in real time. */
const STALE_MS = 800;

let t: TestApp;
let app: App;
let runId: number;
/** When the run was created (its first sign of life). */
let created: number;
beforeEach(async () => {
  t = await makeTestApp();
  app = await buildApp({ ...t.deps, config: { ...t.deps.config, staleAfterMs: STALE_MS } });
  created = Date.now();
  runId = (await createRun(app, t.key, { runName: 'r', projectName: 'p' })).runId;
});
afterEach(async () => {
  await app.close();
  await t.close();
});

const sweep = () => sweepStaleRuns(t.deps.metadata, STALE_MS, Date.now());
/**
 * Sweeps now, or as of the last moment a run written to since `since` is sure not to be
 * stale, whichever is earlier: a liveness write may be skipped within the throttle of the one
 * before, so that moment is the stale time less the throttle after `since`. On a loaded machine
 * the steps between a write and the sweep can take longer than that, and a sweep at the real
 * time would then find the run silent because the test was slow, not because the rule is wrong.
 */
const sweepSince = (since: number) =>
  sweepStaleRuns(t.deps.metadata, STALE_MS, Math.min(Date.now(), since + STALE_MS - livenessThrottleMs(STALE_MS)));
const timeline = async (id = runId) =>
  (await getHistory(app, t.key, id)).map((e) => `${e.fromStatus ?? 'null'}→${e.toStatus}:${e.source}`);
let step = 0;
const ingestPoint = () =>
  ingestOk(app, t.key, 'metrics', { runId, projectName: 'p' }, pyNdjson([metricLine(step++, { loss: 1 })]));

/** Waits until the run has been silent for longer than the stale time, then sweeps. */
async function goStale(): Promise<void> {
  await sleep(STALE_MS + 50);
  expect(await sweep()).toBeGreaterThanOrEqual(1);
}

describe('the stale-run rule', () => {
  it('marks a silent RUNNING run FAILED with source system and a reason in statusMetadata', async () => {
    expect(await sweepSince(created)).toBe(0);
    await goStale();
    const run = await getDetails(app, t.key, runId);
    expect(run.status).toBe('FAILED');
    expect(run.statusMetadata).toMatchObject({ reason: expect.stringMatching(/^stale: no heartbeat/) });
    expect(await timeline()).toEqual(['null→RUNNING:api', 'RUNNING→FAILED:system']);
    expect(await sweep()).toBe(0);
  });

  it('leaves alone a run that keeps ingesting, a run that keeps sending heartbeats, and finished runs', async () => {
    const beating = (await createRun(app, t.key, { runName: 'b', projectName: 'p' })).runId;
    const done = (await createRun(app, t.key, { runName: 'c', projectName: 'p' })).runId;
    await setStatus(app, t.key, done, 'COMPLETED');
    const until = Date.now() + STALE_MS * 3;
    while (Date.now() < until) {
      const wrote = Date.now();
      await ingestPoint();
      expect((await call(app, 'POST', '/api/runs/trigger', t.key, { runId: beating })).status).toBe(200);
      expect(await sweepSince(wrote)).toBe(0);
      await sleep(STALE_MS / 6);
    }
    for (const id of [runId, beating]) expect((await getDetails(app, t.key, id)).status).toBe('RUNNING');
    expect((await getDetails(app, t.key, done)).status).toBe('COMPLETED');
  });

  const writes: { name: string; write: () => Promise<unknown> }[] = [
    { name: 'an ingest', write: ingestPoint },
    {
      name: 'a heartbeat, which answers RUNNING',
      write: async () => {
        const res = await call(app, 'POST', '/api/runs/trigger', t.key, { runId });
        expect(res.body).toEqual({ status: 'RUNNING' });
      },
    },
    { name: 'a RUNNING status write', write: () => setStatus(app, t.key, runId, 'RUNNING') },
  ];
  it.each(writes)('resumes a run marked stale on $name, with a resume event', async ({ write }) => {
    await goStale();
    const wrote = Date.now();
    await write();
    const run = await getDetails(app, t.key, runId);
    expect(run).toMatchObject({ status: 'RUNNING', statusMetadata: null });
    expect(await timeline()).toEqual(['null→RUNNING:api', 'RUNNING→FAILED:system', 'FAILED→RUNNING:resume']);
    expect(await sweepSince(wrote)).toBe(0);
  });

  it('does not resume a run its client marked FAILED when more data arrives', async () => {
    await setStatus(app, t.key, runId, 'FAILED');
    await sleep(STALE_MS + 50);
    await ingestPoint();
    expect((await getDetails(app, t.key, runId)).status).toBe('FAILED');
    expect(await timeline()).toEqual(['null→RUNNING:api', 'RUNNING→FAILED:api']);
  });

  it('fails a resumed run again after a new silence', async () => {
    await goStale();
    await ingestPoint();
    await goStale();
    expect((await timeline()).slice(-1)).toEqual(['RUNNING→FAILED:system']);
  });
});
