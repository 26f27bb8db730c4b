/**
 * Deleting runs to the trash, restoring and purging them (docs/api.md §14), on both engines:
 * a trashed run is absent from every read, a restored one answers every read as before, a
 * purged one leaves nothing (its file bytes included) while a fork keeps what it inherits.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../helpers/test-app.js';
import { createRun, expectError, tenAtATime } from '../helpers/run-api.js';
import { getOk, ingest, ingestOk, ingestSeries, metricLine, pyNdjson, qs } from '../helpers/ingest-api.js';
import { sweepTrash } from '../../src/services/run-purge.js';

const t = useTestApp();
const P = 'trash-proj';

async function post(url: string, body: unknown, key = t.key) {
  return call(t.app, 'POST', url, key, body);
}
async function postOk(url: string, body: unknown) {
  const res = await post(url, body);
  expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}

/** A run of project P with metrics `loss` and `acc` over steps 0..49, a log line, a data line and a file. */
async function fullRun(name: string, project = P) {
  const run = await createRun(t.app, t.key, { runName: name, projectName: project, tags: ['t'] });
  const target = { runId: run.runId, projectName: project };
  await ingestSeries(t.app, t.key, target, 0, 49, { loss: (s) => 1 / (s + 1), acc: (s) => s / 50 });
  await ingestOk(
    t.app,
    t.key,
    'logs',
    target,
    pyNdjson([{ time: 1, message: `log of ${name}`, lineNumber: 1, logType: 'INFO' }]),
  );
  await ingestOk(
    t.app,
    t.key,
    'data',
    target,
    pyNdjson([{ time: 1, step: 0, data: '{}', dataType: 'TEXT', logName: 'txt' }]),
  );
  return run;
}

/** Uploads one file to a run; returns its blob key as stored. */
async function uploadFile(runId: number, project = P): Promise<string> {
  const headers = { 'x-run-id': String(runId), 'x-project-name': project };
  const res = await call(
    t.app,
    'POST',
    '/files',
    t.key,
    { files: [{ fileName: 'f.txt', logName: 'files', fileSize: 5, fileType: 'txt' }] },
    headers,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const link = new URL((res.body.files as Record<string, string>[])[0]!['f.txt']!);
  const put = await t.app.inject({
    method: 'PUT',
    url: link.pathname + link.search,
    payload: 'bytes',
    headers: { 'content-type': 'application/octet-stream' },
  });
  expect(put.statusCode, put.body).toBe(200);
  const keys = await t.stores.series.listRunBlobKeys(runId);
  expect(keys).toHaveLength(1);
  return keys[0]!;
}

/** Every read of a project and its runs whose answer a trashed run must leave. */
function projectReads(runIds: number[], project = P): string[] {
  const ids = runIds.join(',');
  return [
    `/api/runs/list?${qs({ projectName: project, metrics: 'loss' })}`,
    `/api/runs/list?${qs({ projectName: project, filter: JSON.stringify({ 'summary_metrics.loss': { $lt: 1 } }) })}`,
    `/api/runs/leaderboard?${qs({ projectName: project, logName: 'loss' })}`,
    `/api/runs/metric-names?${qs({ projectName: project })}`,
    `/api/runs/projects`,
    `/api/runs/compare?${qs({ projectName: project, runIds: ids, logName: 'loss' })}`,
    `/api/runs/groups?${qs({ projectName: project, groupBy: 'status', metrics: 'loss' })}`,
    `/api/runs/groups/metrics?${qs({ projectName: project, groupBy: 'status', logName: 'loss' })}`,
  ];
}
function runReads(runId: number, displayId: string): string[] {
  return [
    `/api/runs/details/${runId}`,
    `/api/runs/details/by-display-id/${displayId}`,
    `/api/runs/metrics?${qs({ runId })}`,
    `/api/runs/statistics?${qs({ runId })}`,
    `/api/runs/series?${qs({ runIds: String(runId), logName: 'loss' })}`,
    `/api/runs/logs?${qs({ runId })}`,
    `/api/runs/data?${qs({ runId })}`,
    `/api/runs/status/history?${qs({ runId })}`,
  ];
}

/** The answers of reads (status and body; signed URLs left out, they change). */
async function answers(urls: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const url of urls) {
    const res = await call(t.app, 'GET', url, t.key);
    out.push(`${url} ${res.status} ${JSON.stringify(res.body).replace(/"url":"[^"]*"/g, '"url":"…"')}`);
  }
  return out;
}

describe('delete and restore', () => {
  it('takes a run out of every read, and restore brings every answer back as it was', async () => {
    const keep = await fullRun('keep');
    const gone = await fullRun('gone');
    const reads = [...projectReads([keep.runId, gone.runId]), ...runReads(gone.runId, gone.displayId)];
    const before = await answers(reads);
    expect(before[7], 'both runs share each bucket before the delete').toContain('"n":2');
    expect(await postOk('/api/runs/delete', { runIds: [gone.runId] })).toEqual({ success: true, count: 1 });

    for (const url of runReads(gone.runId, gone.displayId)) {
      expectError(await call(t.app, 'GET', url, t.key), 404, 'NOT_FOUND');
    }
    const list = await getOk<{ runs: { id: number }[]; total: number }>(
      t.app,
      t.key,
      `/api/runs/list?projectName=${P}`,
    );
    expect(list.runs.map((r) => r.id)).toEqual([keep.runId]);
    expect(list.total).toBe(1);
    const searched = await getOk<{ runs: { id: number }[] }>(t.app, t.key, projectReads([])[1]!);
    expect(searched.runs.map((r) => r.id)).toEqual([keep.runId]);
    const board = await getOk<{ runs: { runId: number }[]; total: number }>(t.app, t.key, projectReads([])[2]!);
    expect(JSON.stringify(board)).not.toContain(`"runId":${gone.runId},`);
    expect(board.total).toBe(1);
    const projects = await getOk<{ projects: { name: string; runCount: number }[] }>(
      t.app,
      t.key,
      '/api/runs/projects',
    );
    expect(projects.projects.find((p) => p.name === P)?.runCount).toBe(1);
    // compare skips runs it does not find, as it does unknown ones.
    const compared = await getOk<{ runs: { runId: number }[] }>(
      t.app,
      t.key,
      projectReads([keep.runId, gone.runId])[5]!,
    );
    expect(compared.runs.map((r) => r.runId)).toEqual([keep.runId]);
    const groups = await getOk<{ groups: { runIds: number[]; runCount: number }[] }>(
      t.app,
      t.key,
      projectReads([])[6]!,
    );
    expect(groups.groups.flatMap((g) => g.runIds)).toEqual([keep.runId]);
    const bands = await getOk<{ groups: { points: { n: number }[] }[] }>(t.app, t.key, projectReads([])[7]!);
    expect(bands.groups.flatMap((g) => g.points.map((p) => p.n))).not.toContain(2);

    const trash = await getOk<{ runs: { id: number; deletedAt: string; name: string }[] }>(
      t.app,
      t.key,
      `/api/runs/trash?projectName=${P}`,
    );
    expect(trash.runs).toEqual([
      expect.objectContaining({ id: gone.runId, name: 'gone', deletedAt: expect.any(String) }),
    ]);

    expect(await postOk('/api/runs/restore', { runIds: [gone.runId] })).toEqual({ success: true, count: 1 });
    expect(await answers(reads)).toEqual(before);
    expect((await getOk<{ runs: unknown[] }>(t.app, t.key, `/api/runs/trash?projectName=${P}`)).runs).toEqual([]);
  });

  it('drops metric names only the trashed run had', async () => {
    const a = await createRun(t.app, t.key, { runName: 'a', projectName: P });
    await ingestSeries(t.app, t.key, { runId: a.runId, projectName: P }, 0, 3, { only_here: (s) => s });
    await postOk('/api/runs/delete', { runIds: [a.runId] });
    const names = await getOk<{ metricNames: string[] }>(t.app, t.key, `/api/runs/metric-names?projectName=${P}`);
    expect(names.metricNames).not.toContain('only_here');
  });

  it('refuses an unknown, foreign or already trashed id with a 404 that changes nothing', async () => {
    const mine = await createRun(t.app, t.key, { runName: 'mine', projectName: P });
    const theirs = await createRun(t.app, t.otherKey, { runName: 'theirs', projectName: P });
    for (const ids of [
      [mine.runId, 987_654_321],
      [mine.runId, theirs.runId],
    ]) {
      expectError(await post('/api/runs/delete', { runIds: ids }), 404, 'NOT_FOUND');
    }
    expect((await call(t.app, 'GET', `/api/runs/details/${mine.runId}`, t.key)).status).toBe(200);
    expectError(await post('/api/runs/delete', { runIds: [mine.runId] }, t.otherKey), 404);
    await postOk('/api/runs/delete', { runIds: [mine.runId] });
    expectError(await post('/api/runs/delete', { runIds: [mine.runId] }), 404);
    expectError(await post('/api/runs/restore', { runIds: [mine.runId] }, t.otherKey), 404);
    expectError(await post('/api/runs/purge', { runIds: [mine.runId, theirs.runId] }), 404);
    expect((await getOk<{ runs: unknown[] }>(t.app, t.key, `/api/runs/trash?projectName=${P}`)).runs).toHaveLength(1);
  });

  it('refuses ingest, heartbeats and status writes to a trashed run, and its externalId', async () => {
    const run = await createRun(t.app, t.key, { runName: 'ext', projectName: P, externalId: 'ext-1' });
    await postOk('/api/runs/delete', { runIds: [run.runId] });
    const target = { runId: run.runId, projectName: P };
    expect((await ingest(t.app, t.key, 'metrics', target, pyNdjson([metricLine(0, { a: 1 })]))).status).toBe(404);
    expectError(await post('/api/runs/trigger', { runId: run.runId }), 404);
    expectError(await post('/api/runs/status/update', { runId: run.runId, status: 'COMPLETED' }), 404);
    expectError(
      await post('/api/runs/create', { runName: 'ext', projectName: P, externalId: 'ext-1' }),
      409,
      'CONFLICT',
    );
    await postOk('/api/runs/restore', { runIds: [run.runId] });
    expect(await createRun(t.app, t.key, { runName: 'ext', projectName: P, externalId: 'ext-1' })).toMatchObject({
      runId: run.runId,
      resumed: true,
    });
  });

  it('refuses an empty list and more than 1,000 ids with a 400', async () => {
    expectError(await post('/api/runs/delete', { runIds: [] }), 400);
    expectError(await post('/api/runs/delete', { runIds: Array.from({ length: 1001 }, (_, i) => i + 1) }), 400);
  });

  // How long the call takes (RELIABILITY.md: within 2 s) is a figure of `npm run bench`, not a
  // test: on a loaded machine a wall-time limit fails without anything being wrong.
  it('deletes 1,000 runs in one call', async () => {
    const ids = await tenAtATime(
      1000,
      async (i) => (await createRun(t.app, t.key, { runName: `r${i}`, projectName: 'many' })).runId,
    );
    expect(await postOk('/api/runs/delete', { runIds: ids })).toEqual({ success: true, count: 1000 });
    const list = await getOk<{ total: number }>(t.app, t.key, '/api/runs/list?projectName=many');
    expect(list.total).toBe(0);
    // Out of the trash again (one call too), so the TTL sweep test below purges its own run, not
    // these 1,000 one by one (30-60 s of this file's time on a loaded machine).
    await postOk('/api/runs/restore', { runIds: ids });
  });
});

describe('purge', () => {
  it('removes points, lines, files and their bytes, and the run from the trash', async () => {
    const run = await fullRun('doomed');
    const blobKey = await uploadFile(run.runId);
    expect(await t.deps.blobs.stat(blobKey)).toBe(5);
    await postOk('/api/runs/delete', { runIds: [run.runId] });
    expectError(await post('/api/runs/purge', { runIds: [run.runId, 999_999_999] }), 404);
    expect(await postOk('/api/runs/purge', { runIds: [run.runId] })).toEqual({ success: true, count: 1 });
    expect(await t.deps.blobs.stat(blobKey)).toBeUndefined();
    expect(await t.stores.series.listRunBlobKeys(run.runId)).toEqual([]);
    expect((await t.stores.series.listConsoleJson(run.runId, null, 10, 0)).total).toBe(0);
    expect((await t.stores.series.listData(run.runId, null, 10, 0)).total).toBe(0);
    expect(await t.stores.series.summarize([{ runId: run.runId, maxStep: Infinity }])).toEqual([]);
    expect((await getOk<{ runs: unknown[] }>(t.app, t.key, `/api/runs/trash?projectName=${P}`)).runs).toEqual([]);
    expectError(await post('/api/runs/restore', { runIds: [run.runId] }), 404);
    expect(await t.stores.metadata.listPurgeQueue(10)).toEqual([]);
  });

  it('keeps a fork reading the same points and statistics after its parent is deleted and purged', async () => {
    const parent = await fullRun('parent');
    const child = await createRun(t.app, t.key, {
      runName: 'child',
      projectName: P,
      forkRunId: parent.runId,
      forkStep: 20,
    });
    await ingestSeries(t.app, t.key, { runId: child.runId, projectName: P }, 21, 30, { loss: (s) => s });
    const reads = [
      `/api/runs/metrics?${qs({ runId: child.runId })}`,
      `/api/runs/statistics?${qs({ runId: child.runId })}`,
      `/api/runs/series?${qs({ runIds: String(child.runId), logName: 'loss' })}`,
      `/api/runs/leaderboard?${qs({ projectName: P, logName: 'loss' })}`,
    ];
    const before = await answers(reads);
    await postOk('/api/runs/delete', { runIds: [parent.runId] });
    // The leaderboard loses the parent; the fork's own reads do not change.
    const afterDelete = await answers(reads);
    expect(afterDelete.slice(0, 3)).toEqual(before.slice(0, 3));
    await postOk('/api/runs/purge', { runIds: [parent.runId] });
    expect((await answers(reads)).slice(0, 3)).toEqual(before.slice(0, 3));
    expect((await answers(reads))[3]).toEqual(afterDelete[3]);
    expectError(await call(t.app, 'GET', `/api/runs/details/${parent.runId}`, t.key), 404);
    // The parent's series go with its last fork.
    await postOk('/api/runs/delete', { runIds: [child.runId] });
    await postOk('/api/runs/purge', { runIds: [child.runId] });
    expect(await t.stores.series.summarize([{ runId: parent.runId, maxStep: Infinity }])).toEqual([]);
    expect(await t.stores.metadata.listPurgeQueue(10)).toEqual([]);
  });

  it('hides again, at the next sweep, the series of a deletion cut between its two writes', async () => {
    const run = await fullRun('half');
    const orgId = await t.stores.metadata.ensureOrganization(t.org, 0);
    // Only the metadata write of a deletion, as a kill before the series store's would leave it.
    await t.stores.metadata.trashRuns(orgId, [run.runId], Date.now());
    const names = () => getOk<{ metricNames: string[] }>(t.app, t.key, `/api/runs/metric-names?projectName=${P}`);
    expect((await names()).metricNames).toContain('loss');
    await sweepTrash(t.deps, 0, Date.now());
    expect((await names()).metricNames).not.toContain('loss');
    await postOk('/api/runs/restore', { runIds: [run.runId] });
    expect((await names()).metricNames).toContain('loss');
  });

  it('leaves shown the series of a run restored while a sweep was hiding the trash again', async () => {
    const run = await fullRun('raced');
    await postOk('/api/runs/delete', { runIds: [run.runId] });
    const names = () => getOk<{ metricNames: string[] }>(t.app, t.key, `/api/runs/metric-names?projectName=${P}`);
    expect((await names()).metricNames).not.toContain('loss');
    // The sweep has read the run as trashed; the restore runs to its end before the sweep hides.
    const series = t.deps.series;
    let restoredFirst = false;
    const racing = new Proxy(series, {
      get(target, name, receiver) {
        if (name !== 'setRunSeriesHidden') return Reflect.get(target, name, receiver) as unknown;
        return async (runIds: readonly number[], hidden: boolean) => {
          if (hidden && !restoredFirst) {
            restoredFirst = true;
            await postOk('/api/runs/restore', { runIds: [run.runId] });
          }
          return series.setRunSeriesHidden(runIds, hidden);
        };
      },
    });
    await sweepTrash({ ...t.deps, series: racing }, 0, Date.now());
    expect(restoredFirst).toBe(true);
    expect((await names()).metricNames).toContain('loss');
  });

  it('is done by the sweep once a run has been in the trash for the TTL', async () => {
    const run = await fullRun('old');
    await postOk('/api/runs/delete', { runIds: [run.runId] });
    const ttl = t.deps.config.trashTtlMs;
    expect(ttl).toBe(7 * 86_400_000);
    const early = await sweepTrash(t.deps, ttl, Date.now() + ttl - 60_000);
    expect(early.purged).toBe(0);
    const swept = await sweepTrash(t.deps, ttl, Date.now() + ttl + 1000);
    expect(swept.purged).toBeGreaterThanOrEqual(1);
    expect((await getOk<{ runs: unknown[] }>(t.app, t.key, `/api/runs/trash?projectName=${P}`)).runs).toEqual([]);
  });
});

describe('projects, names, retention and stop', () => {
  it('trashes a project with its runs, and restore brings both back', async () => {
    const a = await fullRun('a', 'doomed-proj');
    const b = await fullRun('b', 'doomed-proj');
    expect(await postOk('/api/runs/projects/delete', { projectName: 'doomed-proj' })).toEqual({
      success: true,
      count: 2,
    });
    const projects = await getOk<{ projects: { name: string }[] }>(t.app, t.key, '/api/runs/projects');
    expect(projects.projects.map((p) => p.name)).not.toContain('doomed-proj');
    expectError(await call(t.app, 'GET', `/api/runs/details/${a.runId}`, t.key), 404);
    const trash = await getOk<{ runs: { id: number }[] }>(t.app, t.key, '/api/runs/trash?projectName=doomed-proj');
    expect(trash.runs.map((r) => r.id).sort()).toEqual([a.runId, b.runId].sort());
    await postOk('/api/runs/restore', { runIds: [a.runId, b.runId] });
    const back = await getOk<{ projects: { name: string; runCount: number }[] }>(t.app, t.key, '/api/runs/projects');
    expect(back.projects.find((p) => p.name === 'doomed-proj')?.runCount).toBe(2);
    expectError(await post('/api/runs/projects/delete', { projectName: 'no-such' }), 404);
  });

  it('renames a project: ids, display ids and old names keep working', async () => {
    const run = await fullRun('r', 'old-name');
    await postOk('/api/runs/projects/rename', { projectName: 'old-name', newName: 'new-name' });
    const details = await getOk<{ projectName: string; displayId: string }>(
      t.app,
      t.key,
      `/api/runs/details/${run.runId}`,
    );
    expect(details).toMatchObject({ projectName: 'new-name', displayId: run.displayId });
    await getOk(t.app, t.key, `/api/runs/details/by-display-id/${run.displayId}`);
    expect((await getOk<{ total: number }>(t.app, t.key, '/api/runs/list?projectName=new-name')).total).toBe(1);
    expect(await getOk(t.app, t.key, '/api/runs/projects/renamed?projectName=old-name')).toEqual({
      projectName: 'new-name',
    });
    expect(await getOk(t.app, t.key, '/api/runs/projects/renamed?projectName=other')).toEqual({ projectName: null });
    await createRun(t.app, t.key, { runName: 'x', projectName: 'taken' });
    expectError(
      await post('/api/runs/projects/rename', { projectName: 'new-name', newName: 'taken' }),
      409,
      'CONFLICT',
    );
  });

  it('renames a run', async () => {
    const run = await createRun(t.app, t.key, { runName: 'before', projectName: P });
    await postOk('/api/runs/name/update', { runId: run.runId, name: 'after' });
    expect(await getOk(t.app, t.key, `/api/runs/details/${run.runId}`)).toMatchObject({ name: 'after' });
    expectError(await post('/api/runs/name/update', { runId: run.runId, name: 'x' }, t.otherKey), 404);
  });

  it('stops a RUNNING run as CANCELLED by `user`, and the next heartbeat answers CANCELLED', async () => {
    const run = await createRun(t.app, t.key, { runName: 'long', projectName: P });
    await postOk('/api/runs/stop', { runId: run.runId });
    const history = await getOk<{ events: { toStatus: string; source: string; metadata: unknown }[] }>(
      t.app,
      t.key,
      `/api/runs/status/history?runId=${run.runId}`,
    );
    expect(history.events.at(-1)).toMatchObject({
      toStatus: 'CANCELLED',
      source: 'user',
      metadata: { stoppedBy: { userId: expect.any(Number), keyId: expect.any(Number) } },
    });
    expect((await postOk('/api/runs/trigger', { runId: run.runId })).status).toBe('CANCELLED');
    expectError(await post('/api/runs/stop', { runId: run.runId }), 409, 'CONFLICT');
  });

  it('moves finished runs past the project retention to the trash, never RUNNING ones', async () => {
    const done = await createRun(t.app, t.key, { runName: 'done', projectName: 'kept' });
    const running = await createRun(t.app, t.key, { runName: 'running', projectName: 'kept' });
    await postOk('/api/runs/status/update', { runId: done.runId, status: 'COMPLETED' });
    await postOk('/api/runs/projects/settings/update', { projectName: 'kept', retentionDays: 2 });
    expect(await getOk(t.app, t.key, '/api/runs/projects/settings?projectName=kept')).toEqual({
      projectName: 'kept',
      retentionDays: 2,
    });
    expect((await sweepTrash(t.deps, 0, Date.now() + 86_400_000)).trashedByRetention).toBe(0);
    const swept = await sweepTrash(t.deps, 0, Date.now() + 3 * 86_400_000);
    expect(swept.trashedByRetention).toBeGreaterThanOrEqual(1);
    const trash = await getOk<{ runs: { id: number }[] }>(t.app, t.key, '/api/runs/trash?projectName=kept');
    expect(trash.runs.map((r) => r.id)).toEqual([done.runId]);
    expect((await call(t.app, 'GET', `/api/runs/details/${running.runId}`, t.key)).status).toBe(200);
  });
});

describe('space', () => {
  it.runIf(process.env.STEPWISE_TEST_DATABASE !== 'postgres')(
    'shrinks the SQLite files after purging 1,000,000 points',
    async () => {
      const run = await createRun(t.app, t.key, { runName: 'big', projectName: 'space' });
      const target = { runId: run.runId, projectName: 'space' };
      for (let from = 0; from < 1_000_000; from += 50_000) {
        await ingestSeries(t.app, t.key, target, from, from + 49_999, { a: (s) => Math.sin(s) * s });
      }
      const size = () =>
        fs
          .readdirSync(t.dataDir)
          .filter((f) => f.endsWith('.db') || f.endsWith('.db-wal'))
          .reduce((sum, f) => sum + fs.statSync(`${t.dataDir}/${f}`).size, 0);
      await t.stores.series.reclaimSpace();
      const before = size();
      await postOk('/api/runs/delete', { runIds: [run.runId] });
      await postOk('/api/runs/purge', { runIds: [run.runId] });
      const after = size();
      expect(after, `${before} -> ${after} bytes`).toBeLessThan(before - 4_000_000);
    },
    180_000,
  );
});
