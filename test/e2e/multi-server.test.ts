/**
 * Scale-out: two `stepwise serve` processes started at once on one empty PostgreSQL
 * database and one S3 bucket. Writes that docs/api.md §3 serialises (status writes of parallel
 * ranks, externalId creates) and ingest are spread across both, and every answer must be
 * what one server would give.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3_CREDENTIALS, startS3TestServer, type S3TestServer } from '../helpers/s3-test-server.js';
import { buildDist, spawnServer, type SpawnedServer } from '../helpers/spawned-server.js';
import { emptyPostgresUrl, postgresTestUrl } from '../helpers/test-database.js';

interface MetricStats {
  logName: string;
  count: number;
  min: number;
  max: number;
  mean: number;
  stddev: number;
  last: { step: number; value: number };
}

const KEY = `multi_${randomBytes(20).toString('hex')}`;
const PROJECT = 'scale-out';
let servers: SpawnedServer[] = [];
let database: { url: string; drop: () => Promise<void> };
let s3: S3TestServer;

/** Calls server i (0 or 1) with a JSON body (or none); returns status and parsed body. */
async function api<T = Record<string, unknown>>(
  i: number,
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${servers[i % 2]!.baseUrl}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${KEY}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as T };
}

async function createRun(i: number, body: Record<string, unknown>): Promise<{ runId: number; resumed: boolean }> {
  const res = await api<{ runId: number; resumed: boolean }>(i, 'POST', '/api/runs/create', {
    projectName: PROJECT,
    runName: 'r',
    ...body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function events(runId: number): Promise<{ fromStatus: string | null; toStatus: string }[]> {
  const res = await api<{ events: { fromStatus: string | null; toStatus: string }[] }>(
    0,
    'GET',
    `/api/runs/status/history?runId=${runId}`,
  );
  return res.body.events;
}

describe.skipIf(postgresTestUrl() === undefined)('two servers on one PostgreSQL database and one bucket', () => {
  beforeAll(async () => {
    await buildDist();
    database = await emptyPostgresUrl();
    s3 = await startS3TestServer();
    const args = ['--database-url', database.url, '--blob-url', s3.blobUrl('multi')];
    const env = {
      AWS_ACCESS_KEY_ID: S3_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3_CREDENTIALS.secretAccessKey,
    };
    servers = await Promise.all([spawnServer(args, { key: KEY, env }), spawnServer(args, { key: KEY, env })]);
  }, 240_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await s3?.stop();
    await database?.drop();
  });

  it('started at once on an empty database, they migrated it once and share the bootstrap key', async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const versions = await client.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY 1');
      expect(new Set(versions.rows.map((r) => r.version)).size).toBe(versions.rows.length);
      const keys = await client.query<{ n: string }>('SELECT COUNT(*) AS n FROM api_keys');
      expect(Number(keys.rows[0]!.n)).toBe(1);
    } finally {
      await client.end();
    }
    for (const i of [0, 1]) expect((await api(i, 'POST', '/api/slug', {})).status).toBe(200);
  });

  it('8 identical status writers split across both servers record exactly one event', async () => {
    for (let round = 0; round < 3; round++) {
      const { runId } = await createRun(round, { runName: `ddp-${round}` });
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => api(i, 'POST', '/api/runs/status/update', { runId, status: 'COMPLETED' })),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
      expect((await events(runId)).map((e) => e.toStatus)).toEqual(['RUNNING', 'COMPLETED']);
    }
  });

  it('7 COMPLETED racing 1 FAILED across both servers always end FAILED', async () => {
    for (const failedAt of [0, 3, 7]) {
      const { runId } = await createRun(failedAt, { runName: `race-${failedAt}` });
      await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          api(i, 'POST', '/api/runs/status/update', { runId, status: i === failedAt ? 'FAILED' : 'COMPLETED' }),
        ),
      );
      const run = await api<{ status: string }>(1, 'GET', `/api/runs/details/${runId}`);
      expect(run.body.status).toBe('FAILED');
    }
  });

  it('8 creators with one externalId across both servers get one run and one resumed: false', async () => {
    for (let round = 0; round < 3; round++) {
      const projectName = `fresh-project-${round}`;
      const created = await Promise.all(
        Array.from({ length: 8 }, (_, i) => createRun(i, { projectName, externalId: `ext-${round}`, runName: 'rank' })),
      );
      expect(new Set(created.map((c) => c.runId)).size).toBe(1);
      expect(created.filter((c) => !c.resumed)).toHaveLength(1);
      const projects = await api<{ projects: { name: string; runCount: number }[] }>(0, 'GET', '/api/runs/projects');
      expect(projects.body.projects.find((p) => p.name === projectName)?.runCount).toBe(1);
    }
  });
  it('new projects whose names derive the same prefix, created at once on both servers, get distinct prefixes', async () => {
    const names = ['alpha', 'alpine', 'alps', 'alpaca', 'alpha2', 'alpine2', 'alps2', 'alpaca2'];
    const created = await Promise.all(names.map((projectName, i) => createRun(i, { projectName, runName: 'p' })));
    const ids = await Promise.all(
      created.map(async (c, i) => (await api<{ displayId: string }>(i, 'GET', `/api/runs/details/${c.runId}`)).body),
    );
    const prefixes = ids.map((d) => d.displayId.replace(/-\d+$/, ''));
    expect(new Set(prefixes).size).toBe(names.length);
  });

  it('ingest interleaved through both servers gives exactly the brute-force summaries', async () => {
    const { runId } = await createRun(0, { runName: 'ingest' });
    const winners = new Map<string, { time: number; value: number }>();
    const bodies: string[] = [];
    for (let r = 0; r < 24; r++) {
      const lines: string[] = [];
      for (let k = 0; k < 60; k++) {
        const step = Math.floor(Math.random() * 150);
        const time = 1_700_000_000_000 + r * 1000 + k;
        const loss = Math.random() < 0.05 ? NaN : Math.round((Math.random() * 10 - 2) * 1e6) / 1e6;
        const acc = Math.random();
        lines.push(
          `{"time": ${time}, "step": ${step}, "data": {"loss": ${Number.isNaN(loss) ? 'NaN' : loss}, "acc": ${acc}}}`,
        );
        for (const [name, value] of [
          ['loss', loss],
          ['acc', acc],
        ] as const) {
          const held = winners.get(`${name}/${step}`);
          if (!held || time > held.time) winners.set(`${name}/${step}`, { time, value });
        }
      }
      bodies.push(lines.join('\n'));
    }
    const headers = { 'content-type': 'application/x-ndjson', 'x-run-id': String(runId), 'x-project-name': PROJECT };
    for (let i = 0; i < bodies.length; i += 6) {
      const answers = await Promise.all(
        bodies.slice(i, i + 6).map((body, j) => api(i + j, 'POST', '/ingest/metrics', body, headers)),
      );
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    }
    for (const i of [0, 1]) {
      const stats = await api<{ metrics: MetricStats[] }>(i, 'GET', `/api/runs/statistics?runId=${runId}`);
      for (const name of ['acc', 'loss']) {
        const points = [...winners.entries()]
          .filter(([k, p]) => k.startsWith(`${name}/`) && Number.isFinite(p.value))
          .map(([k, p]) => ({ step: Number(k.slice(name.length + 1)), value: p.value }))
          .sort((a, b) => a.step - b.step);
        const values = points.map((p) => p.value);
        const mean = values.reduce((a, b) => a + b, 0) / values.length;
        const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / values.length;
        const got = stats.body.metrics.find((m) => m.logName === name)!;
        expect(got.count).toBe(values.length);
        expect(got.min).toBe(Math.min(...values));
        expect(got.max).toBe(Math.max(...values));
        expect(got.mean).toBeCloseTo(mean, 12);
        expect(got.stddev).toBeCloseTo(Math.sqrt(variance), 12);
        expect(got.last).toEqual(points.at(-1));
      }
    }
  });

  it('appends sent to the two servers in turn are all kept, though each server cached the series before the other wrote', async () => {
    const { runId } = await createRun(0, { runName: 'turns' });
    const headers = { 'content-type': 'application/x-ndjson', 'x-run-id': String(runId), 'x-project-name': PROJECT };
    const value = (step: number) => Math.sin(step) * 100;
    // Each request appends 50 steps after the last; each server last wrote the series two
    // requests ago, so its cached row and tail are stale and its write must be refused and redone.
    for (let r = 0; r < 12; r++) {
      const lines = Array.from({ length: 50 }, (_, k) => {
        const step = r * 50 + k;
        return `{"time": ${1_700_000_000_000 + step}, "step": ${step}, "data": {"loss": ${value(step)}}}`;
      });
      const answer = await api(r, 'POST', '/ingest/metrics', lines.join('\n'), headers);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    }
    const steps = Array.from({ length: 600 }, (_, i) => i);
    for (const i of [0, 1]) {
      const read = await api<{ metrics: { step: number; value: number }[] }>(
        i,
        'GET',
        `/api/runs/metrics?runId=${runId}&logName=loss&limit=1000`,
      );
      expect(read.body.metrics.map((p) => [p.step, p.value])).toEqual(steps.map((s) => [s, value(s)]));
      const stats = await api<{ metrics: MetricStats[] }>(i, 'GET', `/api/runs/statistics?runId=${runId}`);
      const values = steps.map(value);
      expect(stats.body.metrics[0]).toMatchObject({
        logName: 'loss',
        count: 600,
        min: Math.min(...values),
        max: Math.max(...values),
        last: { step: 599, value: value(599) },
      });
    }
  });

  it('a file uploaded to the bucket through one server is listed, with a working link, by the other', async () => {
    const { runId } = await createRun(0, { runName: 'files' });
    const headers = { 'x-run-id': String(runId), 'x-project-name': PROJECT };
    const file = { fileName: 'sample.png', logName: 'images/sample', fileSize: 6, fileType: 'png', step: 3 };
    const links = await api<Record<string, Record<string, string>[]>>(0, 'POST', '/files', { files: [file] }, headers);
    expect(links.status).toBe(200);
    const uploadUrl = links.body['images/sample']![0]!['sample.png']!;
    expect(new URL(uploadUrl).origin).toBe(s3.endpoint);
    const before = await api<{ files: unknown[] }>(1, 'GET', `/api/runs/files?runId=${runId}`);
    expect(before.body.files).toEqual([]);
    // The link is presigned with the declared size: the bucket refuses any other length.
    const oversized = await fetch(uploadUrl, { method: 'PUT', body: Buffer.from('bytes!!') });
    expect(oversized.status).toBe(403);
    expect((await api<{ files: unknown[] }>(1, 'GET', `/api/runs/files?runId=${runId}`)).body.files).toEqual([]);
    const put = await fetch(uploadUrl, { method: 'PUT', body: Buffer.from('bytes!') });
    expect(put.status).toBe(200);
    const after = await api<{ files: { fileName: string; fileSize: number; url: string }[] }>(
      1,
      'GET',
      `/api/runs/files?runId=${runId}`,
    );
    expect(after.body.files.map((f) => [f.fileName, f.fileSize])).toEqual([['sample.png', 6]]);
    const download = await fetch(after.body.files[0]!.url);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe('bytes!');
  });
});
