/**
 * Every MCP read tool answers what its HTTP route answers for the same seeded runs (the
 * SDK's own client over loopback against a fetch of the route), plus the page fields; the
 * metric history's sampling and `around` window; another organization sees none of it.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunRef } from '../../src/api/schemas/runs.js';
import { getOk, ingestOk, metricLine, pyNdjson, type PyValue, qs } from '../helpers/ingest-api.js';
import { callTool, mcpClient, toolOk, toolRefused } from '../helpers/mcp-client.js';
import { createRun } from '../helpers/run-api.js';
import { call, makeTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let client: Client;
let rival: Client;
const runs: RunRef[] = [];
const STEPS = 300;

async function seedRun(name: string, config: object, tags: string[], scale: number): Promise<RunRef> {
  const run = await createRun(t.app, t.key, { runName: name, projectName: 'mp', config: JSON.stringify(config), tags });
  const lines: PyValue[] = [];
  for (let s = 0; s < STEPS; s++) {
    const data: Record<string, PyValue> = { 'train/loss': scale / (s + 1) };
    if (s % 100 === 0) data['val/acc'] = s / (STEPS * scale);
    lines.push(metricLine(s, data));
  }
  await ingestOk(t.app, t.key, 'metrics', { runId: run.runId }, pyNdjson(lines));
  return run;
}

beforeAll(async () => {
  t = await makeTestApp();
  runs.push(await seedRun('a', { lr: 0.1, opt: { name: 'adam' }, seed: 1 }, ['x'], 1));
  runs.push(await seedRun('b', { lr: 0.01, opt: { name: 'adam' }, seed: 1 }, ['y'], 2));
  runs.push(await seedRun('c', { lr: 0.1, opt: { name: 'sgd' }, seed: 1 }, ['x', 'y'], 3));
  const a = runs[0]!.runId;
  const logs = [0, 1, 2, 3, 4].map((i) => ({
    time: 1_700_000_000_000 + i,
    message: `line ${i}`,
    lineNumber: i + 1,
    logType: i === 3 ? 'ERROR' : 'INFO',
    step: i * 10,
  }));
  await ingestOk(t.app, t.key, 'logs', { runId: a }, pyNdjson(logs));
  const alert = { title: 'loss spiked', body: 'at step 7', level: 'WARN', timestamp: 1_700_000_000 };
  expect((await call(t.app, 'POST', '/api/runs/alert', t.key, { runId: a, alert })).status).toBe(200);
  const file = { fileName: 'img.png', logName: 'samples', fileSize: 3, fileType: 'image/png', step: 1 };
  const headers = { 'x-run-id': String(a), 'x-project-name': 'mp' };
  expect((await call(t.app, 'POST', '/files', t.key, { files: [file] }, headers)).status).toBe(200);
  await createRun(t.app, t.otherKey, { runName: 'rival-run', projectName: 'mp' });
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  client = await mcpClient(base, t.key);
  rival = await mcpClient(base, t.otherKey);
});
afterAll(async () => {
  await client?.close();
  await rival?.close();
  await t?.close();
});

const http = <T = Record<string, unknown>>(path: string, params: Record<string, string | number | undefined>) =>
  getOk<T>(t.app, t.key, `${path}?${qs(params)}`);
const page = (total: number | null, hasMore = false) => ({ total, hasMore });

describe('each read tool answers as its HTTP route', () => {
  it('search_runs: filter, sort, config keys and metric summaries as GET /api/runs/list', async () => {
    const filter = '{"config.lr":{"$gt":0.05}}';
    const answer = await toolOk(client, 'search_runs', {
      projectName: 'mp',
      filter,
      sort: '-summary_metrics.train/loss',
      configKeys: ['lr', 'opt.name'],
      metrics: ['train/loss'],
    });
    const route = await http('/api/runs/list', {
      projectName: 'mp',
      filter,
      sort: '-summary_metrics.train/loss',
      configKeys: 'lr,opt.name',
      metrics: 'train/loss',
      limit: 20,
    });
    expect(answer).toEqual({ ...route, ...page(2) });
    expect((answer.runs as { name: string }[]).map((r) => r.name)).toEqual(['c', 'a']);
  });

  it('search_runs: tags, status and paging as GET /api/runs/list', async () => {
    const answer = await toolOk(client, 'search_runs', {
      projectName: 'mp',
      tags: ['y'],
      status: ['RUNNING'],
      limit: 1,
      offset: 1,
    });
    const route = await http('/api/runs/list', {
      projectName: 'mp',
      tags: 'y',
      status: 'RUNNING',
      limit: 1,
      offset: 1,
    });
    expect(answer).toEqual({ ...route, ...page(2) });
  });

  it('get_run as GET /api/runs/details/{runId}', async () => {
    const runId = runs[0]!.runId;
    const answer = await toolOk<{ logNames: unknown[] }>(client, 'get_run', { runId });
    const route = await getOk<{ logNames: unknown[] }>(t.app, t.key, `/api/runs/details/${runId}`);
    expect(answer).toEqual({ ...route, ...page(route.logNames.length) });
  });

  it('get_metric_names as GET /api/runs/metric-names', async () => {
    const answer = await toolOk(client, 'get_metric_names', { projectName: 'mp' });
    const route = await http('/api/runs/metric-names', { projectName: 'mp' });
    expect(answer).toEqual({ ...route, ...page(2) });
    const one = await toolOk(client, 'get_metric_names', { projectName: 'mp', limit: 1 });
    expect(one).toEqual({ projectName: 'mp', metricNames: ['train/loss'], ...page(null, true) });
  });

  it('get_metric_history as GET /api/runs/metrics of one metric', async () => {
    const runId = runs[1]!.runId;
    const answer = await toolOk(client, 'get_metric_history', { runId, logName: 'train/loss' });
    const route = await http<{ metrics: unknown[]; total: number }>('/api/runs/metrics', {
      runId,
      logName: 'train/loss',
      limit: 2000,
    });
    expect(answer).toEqual({
      runId,
      logName: 'train/loss',
      points: route.metrics,
      sampled: false,
      truncated: false,
      ...page(STEPS),
    });
  });

  it('get_statistics as GET /api/runs/statistics', async () => {
    const runId = runs[2]!.runId;
    const answer = await toolOk(client, 'get_statistics', { runId });
    const route = await http('/api/runs/statistics', { runId });
    expect(answer).toEqual({ ...route, ...page(2) });
  });

  it('compare_runs as GET /api/runs/compare, plus the config keys that differ', async () => {
    const ids = runs.map((r) => r.runId);
    const answer = await toolOk(client, 'compare_runs', { projectName: 'mp', logName: 'train/loss', runIds: ids });
    const route = await http('/api/runs/compare', { projectName: 'mp', logName: 'train/loss', runIds: ids.join(',') });
    expect(answer).toEqual({ ...route, differingConfigKeys: ['lr', 'opt.name'], ...page(3) });
  });

  it('get_leaderboard as GET /api/runs/leaderboard', async () => {
    const args = { projectName: 'mp', logName: 'train/loss', aggregation: 'MIN', direction: 'DESC', limit: 2 };
    const answer = await toolOk(client, 'get_leaderboard', { ...args, filter: '{"config.seed":1}' });
    const route = await http('/api/runs/leaderboard', { ...args, filter: '{"config.seed":1}' });
    expect(answer).toEqual({ ...route, ...page(3, true) });
  });

  it('get_logs as GET /api/runs/logs, of one type too', async () => {
    const runId = runs[0]!.runId;
    expect(await toolOk(client, 'get_logs', { runId, limit: 2, offset: 1 })).toEqual({
      ...(await http('/api/runs/logs', { runId, limit: 2, offset: 1 })),
      ...page(5, true),
    });
    expect(await toolOk(client, 'get_logs', { runId, logType: 'ERROR' })).toEqual({
      ...(await http('/api/runs/logs', { runId, logType: 'ERROR' })),
      ...page(1),
    });
  });

  it('get_logs narrows to a text, a step range or around a step: the route’s lines that match', async () => {
    const runId = runs[0]!.runId;
    const all = (
      await http<{ logs: { message: string; step: number; logType: string }[] }>('/api/runs/logs', { runId })
    ).logs;
    const pick = (f: (l: (typeof all)[number]) => boolean) => all.filter(f);
    expect(await toolOk(client, 'get_logs', { runId, contains: 'LINE 2' })).toEqual({
      logs: pick((l) => l.message === 'line 2'),
      ...page(1),
    });
    expect(await toolOk(client, 'get_logs', { runId, around: { step: 20, window: 10 } })).toEqual({
      logs: pick((l) => l.step >= 10 && l.step <= 30),
      ...page(3),
    });
    expect(await toolOk(client, 'get_logs', { runId, contains: 'line', logType: 'ERROR', stepMin: 5 })).toEqual({
      logs: pick((l) => l.logType === 'ERROR'),
      ...page(1),
    });
    expect(await toolOk(client, 'get_logs', { runId, contains: 'line', limit: 2, offset: 1 })).toEqual({
      logs: all.slice(1, 3),
      ...page(5, true),
    });
    expect(await toolOk(client, 'get_logs', { runId, contains: '%' })).toEqual({ logs: [], ...page(0) });
  });

  it('list_files as GET /api/runs/files, with signed download links', async () => {
    const runId = runs[0]!.runId;
    const answer = await toolOk<{ files: { url: string }[] }>(client, 'list_files', { runId });
    const route = await http<{ files: { url: string }[] }>('/api/runs/files', { runId });
    const unsigned = (files: { url: string }[]) => files.map((f) => ({ ...f, url: f.url.split('?')[0] }));
    expect(unsigned(answer.files)).toEqual(unsigned(route.files));
    expect(answer.files.length).toBe(route.files.length);
    for (const f of answer.files) expect(f.url).toMatch(/[?&]sig=/);
  });

  it('list_alerts as GET /api/runs/alerts', async () => {
    const runId = runs[0]!.runId;
    const answer = await toolOk(client, 'list_alerts', { runId });
    expect(answer).toEqual({ ...(await http('/api/runs/alerts', { runId })), ...page(1) });
  });

  it('list_projects as GET /api/runs/projects', async () => {
    const answer = await toolOk(client, 'list_projects', {});
    expect(answer).toEqual({ ...(await getOk<object>(t.app, t.key, '/api/runs/projects')), ...page(1) });
  });
});

describe('get_metric_history windows', () => {
  it('samples to the point budget and says so, as GET /api/runs/metrics with that limit', async () => {
    const runId = runs[0]!.runId;
    const answer = await toolOk<{ points: unknown[] }>(client, 'get_metric_history', {
      runId,
      logName: 'train/loss',
      maxPoints: 50,
    });
    const route = await http<{ metrics: unknown[] }>('/api/runs/metrics', { runId, logName: 'train/loss', limit: 50 });
    expect(answer).toMatchObject({
      points: route.metrics,
      sampled: true,
      truncated: false,
      total: STEPS,
      hasMore: false,
    });
    expect(answer.points.length).toBeLessThanOrEqual(50);
  });

  it('answers the steps around a step, as the step range of GET /api/runs/metrics', async () => {
    const runId = runs[0]!.runId;
    const answer = await toolOk<{ points: { step: number }[] }>(client, 'get_metric_history', {
      runId,
      logName: 'train/loss',
      around: { step: 100, window: 10 },
    });
    const route = await http<{ metrics: unknown[] }>('/api/runs/metrics', {
      runId,
      logName: 'train/loss',
      stepMin: 90,
      stepMax: 110,
    });
    expect(answer.points).toEqual(route.metrics);
    expect(answer.points.map((p) => p.step)).toEqual(Array.from({ length: 21 }, (_, i) => 90 + i));
    expect(answer).toMatchObject({ total: 21, sampled: false, truncated: false });
    const edge = await toolOk(client, 'get_metric_history', {
      runId,
      logName: 'train/loss',
      around: { step: 2, window: 5 },
    });
    expect(edge).toMatchObject({ total: 8 });
  });

  it('refuses around together with a step range, naming around', async () => {
    const refused = await toolRefused(
      client,
      'get_metric_history',
      { runId: runs[0]!.runId, logName: 'train/loss', around: { step: 1, window: 1 }, stepMin: 0 },
      'BAD_REQUEST',
    );
    expect(refused.error).toMatch(/^around/);
  });
});

describe('another organization', () => {
  it('never sees the runs: empty lists and NOT_FOUND for every run', async () => {
    expect(await toolOk(rival, 'search_runs', { projectName: 'mp' })).toMatchObject({ total: 1 });
    const rivalRuns = await toolOk<{ runs: { name: string }[] }>(rival, 'search_runs', { projectName: 'mp' });
    expect(rivalRuns.runs.map((r) => r.name)).toEqual(['rival-run']);
    for (const run of runs) {
      const runId = run.runId;
      for (const [name, args] of [
        ['get_run', { runId }],
        ['get_metric_history', { runId, logName: 'train/loss' }],
        ['get_statistics', { runId }],
        ['get_logs', { runId }],
        ['list_files', { runId }],
        ['list_alerts', { runId }],
        ['update_tags', { runId, tags: ['pwned'] }],
        ['update_notes', { runId, notes: 'pwned' }],
        ['stop_run', { runId }],
      ] as const) {
        const answer = await callTool(rival, name, args);
        expect(answer.isError, `${name}: ${JSON.stringify(answer.text)}`).toBe(true);
        expect(answer.text.code, name).toBe('NOT_FOUND');
      }
    }
    const ids = runs.map((r) => r.runId);
    const compared = await toolOk(rival, 'compare_runs', { projectName: 'mp', logName: 'train/loss', runIds: ids });
    expect(compared).toMatchObject({ runs: [], total: 0 });
    const board = await toolOk(rival, 'get_leaderboard', { projectName: 'mp', logName: 'train/loss' });
    expect(board).toMatchObject({ runs: [], total: 0 });
    expect(await toolOk(rival, 'get_metric_names', { projectName: 'mp' })).toMatchObject({ metricNames: [] });
    const mine = await getOk<{ runs: { tags: string[] }[] }>(t.app, t.key, '/api/runs/list?projectName=mp');
    for (const run of mine.runs) expect(run.tags).not.toContain('pwned');
  });
});
