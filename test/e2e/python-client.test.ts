/**
 * End-to-end over real HTTP on loopback: a `stepwise serve` child process driven exactly as
 * the Python client `pluto-ml` drives its server (request sequence, headers, Python
 * `json.dumps` bodies with NaN tokens, explicit nulls, `X-Run-Id: None` on create, upload to
 * the absolute signed URL the server hands out), then everything read back through the
 * interface.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeRunId } from '../../src/domain/sqid.js';
import { ISO_MS, type PyValue, pyDumps, pyNdjson, PyFloat } from '../helpers/ingest-api.js';
import { buildDist, portInUse, spawnServer, type SpawnedServer } from '../helpers/spawned-server.js';
import type { RunFile } from '../../src/api/schemas/files.js';
import type { DataLine, LogLine } from '../../src/api/schemas/logs.js';
import type { MetricPoint, Statistics } from '../../src/api/schemas/metrics.js';
import type { RunDetails } from '../../src/api/schemas/runs.js';
import type { StatusEvent } from '../../src/api/schemas/status-events.js';

/** The addresses the client derives from its settings (all four on one port via PLUTO_URL_*). */
interface ClientUrls {
  api: string;
  ingest: string;
  py: string;
}

interface Answer {
  status: number;
  body: unknown;
  text: string;
}

/**
 * What pluto-ml sends, request by request. Headers follow its ServerInterface and sync
 * uploader: Authorization, Content-Type, User-Agent, X-Run-Id (`None` before the run
 * exists), X-Run-Name, X-Project-Name.
 */
class PlutoClient {
  runId: number | null = null;

  constructor(
    readonly urls: ClientUrls,
    readonly key: string,
    readonly project: string,
    readonly runName: string,
  ) {}

  private headers(contentType: string): Record<string, string> {
    return {
      Authorization: `Bearer ${this.key}`,
      'Content-Type': contentType,
      'User-Agent': 'pluto',
      'X-Run-Id': this.runId === null ? 'None' : String(this.runId),
      'X-Run-Name': this.runName,
      'X-Project-Name': this.project,
    };
  }

  private async send(
    method: string,
    url: string,
    headers: Record<string, string>,
    body?: string | Uint8Array<ArrayBuffer>,
  ): Promise<Answer> {
    const res = await fetch(url, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: res.status, body: parsed, text };
  }

  /** auth.login: POST /api/slug with the bearer key only, no body. */
  login(): Promise<Answer> {
    return this.send('POST', `${this.urls.api}/api/slug`, { Authorization: `Bearer ${this.key}` });
  }

  /** A JSON POST to the API with the client's headers; the body is written by Python's json.dumps. */
  postJson(base: string, path: string, body: PyValue): Promise<Answer> {
    return this.send('POST', `${base}${path}`, this.headers('application/json'), pyDumps(body));
  }

  /** An NDJSON POST to the ingest service. */
  postNdjson(path: string, lines: PyValue[]): Promise<Answer> {
    return this.send('POST', `${this.urls.ingest}${path}`, this.headers('application/x-ndjson'), pyNdjson(lines));
  }

  /** The storage PUT: raw bytes to the signed URL as given, only a Content-Type header. */
  putFile(url: string, bytes: Uint8Array, mimeType: string): Promise<Answer> {
    return this.send('PUT', url, { 'Content-Type': mimeType }, new Uint8Array(bytes));
  }
}

/** GET through the interface with the key; fails the test unless 200. */
async function read<T>(server: SpawnedServer, path: string): Promise<T> {
  const res = await fetch(`${server.baseUrl}${path}`, { headers: { Authorization: `Bearer ${server.key}` } });
  const text = await res.text();
  expect(res.status, `GET ${path}: ${text}`).toBe(200);
  return JSON.parse(text) as T;
}

const plutoPortsBusy = (
  await Promise.all([3001, 3003, 3004].map(async (p) => ((await portInUse(p)) ? p : null)))
).filter((p): p is number => p !== null);

beforeAll(async () => {
  await buildDist();
}, 300_000);

describe('pluto-ml against a real stepwise server', () => {
  const PROJECT = 'e2e-vision';
  const RUN_NAME = 'resnet-baseline';
  const createdAt = Date.now() - 3_600_000;
  const t0 = createdAt + 1_000;
  const imageBytes = randomBytes(1024 * 1024 + 333);
  const textBytes = Buffer.from('predicted: cat\nlabel: cat\n', 'utf8');
  const imageName = `sample.${'0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0'}.png`;
  const textName = 'notes.5a4b3c2d.txt';
  const lossAt = (s: number): number => (s === 7 ? Number.NaN : 2 / s);
  const accAt = (s: number): number => s / 100;

  let server: SpawnedServer;
  let client: PlutoClient;
  /** Every write of the client, by name, in the order it was sent. */
  const answers = new Map<string, Answer>();
  const record = (name: string, answer: Answer): Answer => {
    answers.set(name, answer);
    return answer;
  };

  beforeAll(async () => {
    server = await spawnServer();
    const urls = { api: server.baseUrl, ingest: server.baseUrl, py: server.baseUrl };
    client = new PlutoClient(urls, server.key, PROJECT, RUN_NAME);

    record('POST /api/slug (login)', await client.login());

    const create = record(
      'POST /api/runs/create with X-Run-Id None and explicit nulls',
      await client.postJson(urls.api, '/api/runs/create', {
        runName: RUN_NAME,
        projectName: PROJECT,
        externalId: null,
        config: pyDumps({ lr: 0.001, batch_size: 32, model: { name: 'resnet18', dropout: new PyFloat(0) } }),
        loggerSettings: pyDumps({
          tag: 'pluto',
          project: PROJECT,
          mode: 'perf',
          x_log_level: 16,
          disable_console: false,
          url_view: null,
          store_max_size: 16384,
          x_sys_sampling_interval: 4,
        }),
        systemMetadata: pyDumps({ platform: 'Linux-6.1', python: '3.11.9', gpu: null, cpu: { count: 2 } }),
        tags: ['baseline'],
        createdAt,
        updatedAt: createdAt,
        forkRunId: null,
        forkStep: null,
        inheritConfig: null,
        inheritTags: null,
      }),
    );
    const runId = (create.body as { runId?: unknown } | undefined)?.runId;
    if (typeof runId !== 'number') throw new Error(`create failed: ${create.status} ${create.text}`);
    client.runId = runId;

    record(
      'POST /api/runs/logName/add METRIC',
      await client.postJson(urls.api, '/api/runs/logName/add', { runId, logType: 'METRIC', logName: ['loss', 'acc'] }),
    );
    record(
      'POST /api/runs/logName/add METRIC (system)',
      await client.postJson(urls.api, '/api/runs/logName/add', {
        runId,
        logType: 'METRIC',
        logName: ['sys/cpu.percentage', 'sys/memory.percentage'],
      }),
    );
    record(
      'POST /api/runs/logName/add HISTOGRAM',
      await client.postJson(urls.api, '/api/runs/logName/add', {
        runId,
        logType: 'HISTOGRAM',
        logName: ['weights/hist'],
      }),
    );
    record(
      'POST /api/runs/logName/add IMAGE',
      await client.postJson(urls.api, '/api/runs/logName/add', { runId, logType: 'IMAGE', logName: ['samples'] }),
    );
    record('POST /api/runs/trigger (first heartbeat)', await client.postJson(urls.py, '/api/runs/trigger', { runId }));

    const metricLines = (from: number, to: number): PyValue[] =>
      Array.from({ length: to - from + 1 }, (_, i) => {
        const s = from + i;
        return { time: t0 + s * 100, step: s, data: { loss: lossAt(s), acc: accAt(s) } };
      });
    record('POST /ingest/metrics steps 1..50', await client.postNdjson('/ingest/metrics', metricLines(1, 50)));
    record('POST /ingest/metrics steps 51..100', await client.postNdjson('/ingest/metrics', metricLines(51, 100)));
    // The sync process sends system metrics with step 0 on every line.
    record(
      'POST /ingest/metrics system metrics at step 0',
      await client.postNdjson('/ingest/metrics', [
        { time: t0, step: 0, data: { 'sys/cpu.percentage': 10.5, 'sys/memory.percentage': 40 } },
        { time: t0 + 4_000, step: 0, data: { 'sys/cpu.percentage': 20.25, 'sys/memory.percentage': 41 } },
        { time: t0 + 8_000, step: 0, data: { 'sys/cpu.percentage': 30, 'sys/memory.percentage': 42 } },
      ]),
    );
    record(
      'POST /ingest/logs',
      await client.postNdjson('/ingest/logs', [
        { time: t0 + 1, message: 'Epoch 1/10', lineNumber: 1, logType: 'INFO' },
        { time: t0 + 2, message: 'loss=NaN detected at step 7', lineNumber: 2, logType: 'INFO' },
        { time: t0 + 3, message: 'Traceback (most recent call last):', lineNumber: 1, logType: 'ERROR' },
        { time: t0 + 4, message: 'température ✓', lineNumber: 3, logType: 'INFO' },
      ]),
    );
    record(
      'POST /ingest/data',
      await client.postNdjson('/ingest/data', [
        {
          time: t0 + 10,
          data: pyDumps({ freq: [1, 4, 2], bins: [0, 0.5, 1, 1.5], shape: 'generic', type: 'Histogram' }),
          dataType: 'HISTOGRAM',
          logName: 'weights/hist',
          step: 10,
        },
        {
          time: t0 + 20,
          data: pyDumps({ freq: [2, 2, 3], bins: [0, 0.5, 1, 1.5], shape: 'generic', type: 'Histogram' }),
          dataType: 'HISTOGRAM',
          logName: 'weights/hist',
          step: 20,
        },
      ]),
    );

    const files = record(
      'POST /files',
      await client.postJson(urls.ingest, '/files', {
        files: [
          {
            fileName: imageName,
            fileSize: imageBytes.length,
            fileType: 'png',
            time: t0 + 30,
            logName: 'samples',
            step: 30,
          },
          {
            fileName: textName,
            fileSize: textBytes.length,
            fileType: 'txt',
            time: t0 + 40,
            logName: 'samples',
            step: 40,
          },
        ],
      }),
    );
    // The client flattens {"<logName>": [{"<fileName>": url}]} and looks each file up by name.
    const presigned: Record<string, string> = {};
    for (const list of Object.values((files.body ?? {}) as Record<string, unknown>)) {
      if (Array.isArray(list))
        for (const m of list) if (typeof m === 'object' && m !== null) Object.assign(presigned, m);
    }
    if (presigned[imageName] === undefined || presigned[textName] === undefined)
      throw new Error(`POST /files: ${files.status} ${files.text}`);
    record('PUT image bytes to the signed URL', await client.putFile(presigned[imageName], imageBytes, 'image/png'));
    record('PUT text bytes to the signed URL', await client.putFile(presigned[textName], textBytes, 'text/plain'));

    record(
      'POST /api/runs/tags/update',
      await client.postJson(urls.api, '/api/runs/tags/update', { runId, tags: ['baseline', 'e2e', 'gpu'] }),
    );
    record(
      'POST /api/runs/config/update',
      await client.postJson(urls.api, '/api/runs/config/update', {
        runId,
        config: pyDumps({ epochs: 10, model: { depth: 18 } }),
      }),
    );
    record(
      'POST /api/runs/trigger (heartbeat while running)',
      await client.postJson(urls.py, '/api/runs/trigger', { runId }),
    );
    record(
      'POST /api/runs/alert',
      await client.postJson(urls.py, '/api/runs/alert', {
        runId,
        alert: {
          timestamp: t0 + 50,
          level: 'WARN',
          title: 'NaN loss',
          body: 'loss became NaN at step 7',
          email: true,
          url: null,
        },
      }),
    );
    record(
      'POST /api/runs/status/update COMPLETED',
      await client.postJson(urls.api, '/api/runs/status/update', { runId, status: 'COMPLETED', statusMetadata: null }),
    );
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('answers every request of the client with 200', () => {
    const failed = [...answers]
      .filter(([, a]) => a.status !== 200)
      .map(([name, a]) => `${name}: ${a.status} ${a.text}`);
    expect(failed).toEqual([]);
    expect(answers.size).toBe(20);
  });

  it('answers the login with the organization slug of the key', async () => {
    const login = answers.get('POST /api/slug (login)')!;
    const validate = await read<{ valid: boolean; organization: { slug: string } }>(server, '/api/runs/auth/validate');
    expect(validate.valid).toBe(true);
    expect(login.body).toEqual({ organization: { slug: validate.organization.slug } });
  });

  it('answers the create with the fields the client reads (runId, url, resumed)', () => {
    const body = answers.get('POST /api/runs/create with X-Run-Id None and explicit nulls')!.body as Record<
      string,
      unknown
    >;
    expect(body).toMatchObject({
      runId: client.runId,
      number: 1,
      projectName: PROJECT,
      resumed: false,
      forkedFromRunId: null,
      forkStep: null,
    });
    expect(body.url).toBe(
      `${server.baseUrl}/o/${String(body.organizationSlug)}/projects/${PROJECT}/${encodeRunId(client.runId!)}`,
    );
    expect(body.displayId).toMatch(/^[A-Z0-9]{1,4}-1$/);
  });

  it('answers the heartbeat with the run status while running', () => {
    expect(answers.get('POST /api/runs/trigger (first heartbeat)')!.body).toEqual({ status: 'RUNNING' });
    expect(answers.get('POST /api/runs/trigger (heartbeat while running)')!.body).toEqual({ status: 'RUNNING' });
  });

  it('answers each ingest request with the number of points or lines stored', () => {
    expect(answers.get('POST /ingest/metrics steps 1..50')!.body).toEqual({ success: true, count: 100 });
    expect(answers.get('POST /ingest/logs')!.body).toEqual({ success: true, count: 4 });
    expect(answers.get('POST /ingest/data')!.body).toEqual({ success: true, count: 2 });
  });

  it('reads back the run details: status, tags, merged config, parsed metadata and every log name', async () => {
    const run = await read<RunDetails>(server, `/api/runs/details/${client.runId}`);
    expect(run).toMatchObject({
      id: client.runId,
      name: RUN_NAME,
      number: 1,
      status: 'COMPLETED',
      tags: ['baseline', 'e2e', 'gpu'],
      projectName: PROJECT,
      externalId: null,
      forkedFromRunId: null,
      forkStep: null,
      config: { lr: 0.001, batch_size: 32, model: { name: 'resnet18', dropout: 0, depth: 18 }, epochs: 10 },
      systemMetadata: { platform: 'Linux-6.1', python: '3.11.9', gpu: null, cpu: { count: 2 } },
      loggerSettings: {
        tag: 'pluto',
        project: PROJECT,
        mode: 'perf',
        x_log_level: 16,
        disable_console: false,
        url_view: null,
      },
      createdAt: new Date(createdAt).toISOString(),
    });
    for (const field of ['createdAt', 'updatedAt', 'statusUpdated'] as const) expect(run[field]).toMatch(ISO_MS);
    const logNames = Object.fromEntries(run.logNames.map((l) => [l.logName, `${l.logType} ${l.logGroup}`]));
    expect(logNames).toEqual({
      loss: 'METRIC ',
      acc: 'METRIC ',
      'sys/cpu.percentage': 'METRIC sys',
      'sys/memory.percentage': 'METRIC sys',
      'weights/hist': 'HISTOGRAM weights',
      samples: 'IMAGE ',
    });
  });

  it('reads back every metric point, the NaN as null with its flag', async () => {
    const { metrics } = await read<{ metrics: MetricPoint[] }>(
      server,
      `/api/runs/metrics?runId=${client.runId}&projectName=${PROJECT}&logName=loss`,
    );
    expect(metrics.map((p) => p.step)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(metrics[6]).toEqual({
      logName: 'loss',
      logGroup: '',
      time: new Date(t0 + 700).toISOString(),
      step: 7,
      value: null,
      valueFlag: 'NaN',
    });
    expect(metrics[9]).toEqual({
      logName: 'loss',
      logGroup: '',
      time: new Date(t0 + 1_000).toISOString(),
      step: 10,
      value: 0.2,
    });
    const sys = await read<{ metrics: MetricPoint[] }>(server, `/api/runs/metrics?runId=${client.runId}&logGroup=sys`);
    // Contract §4 (amended 2026-11-22): sys/ series keep every sample, keyed by (step, time).
    expect(sys.metrics.map((p) => [p.logName, p.step, p.value])).toEqual([
      ['sys/cpu.percentage', 0, 10.5],
      ['sys/cpu.percentage', 0, 20.25],
      ['sys/cpu.percentage', 0, 30],
      ['sys/memory.percentage', 0, 40],
      ['sys/memory.percentage', 0, 41],
      ['sys/memory.percentage', 0, 42],
    ]);
  });

  it('reads back the statistics computed from the finite values', async () => {
    const stats = await read<Statistics>(server, `/api/runs/statistics?runId=${client.runId}&projectName=${PROJECT}`);
    expect(stats).toMatchObject({ runId: client.runId, runName: RUN_NAME, projectName: PROJECT });
    expect(stats.metrics.map((m) => m.logName)).toEqual(['acc', 'loss', 'sys/cpu.percentage', 'sys/memory.percentage']);
    const finiteLoss = Array.from({ length: 100 }, (_, i) => lossAt(i + 1)).filter((v) => Number.isFinite(v));
    const loss = stats.metrics.find((m) => m.logName === 'loss')!;
    expect(loss).toMatchObject({ count: 99, min: 0.02, max: 2, last: { step: 100, value: 0.02 } });
    expect(loss.mean).toBeCloseTo(finiteLoss.reduce((a, b) => a + b, 0) / finiteLoss.length, 12);
    expect(stats.metrics.find((m) => m.logName === 'acc')).toMatchObject({
      count: 100,
      min: 0.01,
      max: 1,
      last: { step: 100, value: 1 },
    });
    expect(stats.metrics.find((m) => m.logName === 'sys/cpu.percentage')).toMatchObject({
      count: 3,
      last: { step: 0, value: 30 },
    });
  });

  it('reads back the console lines in the order they were produced', async () => {
    const { logs, total } = await read<{ logs: LogLine[]; total: number }>(
      server,
      `/api/runs/logs?runId=${client.runId}&projectName=${PROJECT}`,
    );
    expect(total).toBe(4);
    expect(logs).toEqual([
      { time: new Date(t0 + 1).toISOString(), logType: 'INFO', lineNumber: 1, message: 'Epoch 1/10', step: 0 },
      {
        time: new Date(t0 + 2).toISOString(),
        logType: 'INFO',
        lineNumber: 2,
        message: 'loss=NaN detected at step 7',
        step: 0,
      },
      {
        time: new Date(t0 + 3).toISOString(),
        logType: 'ERROR',
        lineNumber: 1,
        message: 'Traceback (most recent call last):',
        step: 0,
      },
      { time: new Date(t0 + 4).toISOString(), logType: 'INFO', lineNumber: 3, message: 'température ✓', step: 0 },
    ]);
    const errors = await read<{ logs: LogLine[]; total: number }>(
      server,
      `/api/runs/logs?runId=${client.runId}&logType=ERROR`,
    );
    expect(errors.total).toBe(1);
  });

  it('reads back the histogram lines with their data text', async () => {
    const { data, total } = await read<{ data: DataLine[]; total: number }>(
      server,
      `/api/runs/data?runId=${client.runId}&logName=weights%2Fhist`,
    );
    expect(total).toBe(2);
    expect(data.map((d) => [d.step, d.dataType, (JSON.parse(d.data) as { freq: number[] }).freq])).toEqual([
      [10, 'HISTOGRAM', [1, 4, 2]],
      [20, 'HISTOGRAM', [2, 2, 3]],
    ]);
  });

  it('lists the uploaded files and serves byte-identical content from their links without a key', async () => {
    const { files } = await read<{ files: RunFile[] }>(
      server,
      `/api/runs/files?runId=${client.runId}&projectName=${PROJECT}`,
    );
    expect(files.map((f) => [f.fileName, f.fileType, f.fileSize, f.logName, f.step, f.time])).toEqual([
      [imageName, 'png', imageBytes.length, 'samples', 30, new Date(t0 + 30).toISOString()],
      [textName, 'txt', textBytes.length, 'samples', 40, new Date(t0 + 40).toISOString()],
    ]);
    for (const [file, bytes] of [
      [files[0]!, imageBytes],
      [files[1]!, textBytes],
    ] as const) {
      expect(file.url.startsWith(`${server.baseUrl}/`)).toBe(true);
      const res = await fetch(file.url);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    }
  });

  it('reads back the alert', async () => {
    const { alerts } = await read<{ alerts: { title: string | null; level: string | null; time: string }[] }>(
      server,
      `/api/runs/alerts?runId=${client.runId}`,
    );
    expect(alerts.map((a) => [a.title, a.level, a.time])).toEqual([
      ['NaN loss', 'WARN', new Date(t0 + 50).toISOString()],
    ]);
  });

  it('keeps the status timeline: created RUNNING, then COMPLETED', async () => {
    const { runId, events } = await read<{ runId: number; events: StatusEvent[] }>(
      server,
      `/api/runs/status/history?runId=${client.runId}`,
    );
    expect(runId).toBe(client.runId);
    expect(events.map((e) => [e.fromStatus, e.toStatus, e.source])).toEqual([
      [null, 'RUNNING', 'api'],
      ['RUNNING', 'COMPLETED', 'api'],
    ]);
  });

  it('answers a heartbeat after the finish with COMPLETED', async () => {
    expect((await client.postJson(client.urls.py, '/api/runs/trigger', { runId: client.runId })).body).toEqual({
      status: 'COMPLETED',
    });
  });

  it('lists the project with its run', async () => {
    const { projects } = await read<{ projects: { name: string; runCount: number }[] }>(server, '/api/runs/projects');
    expect(projects.find((p) => p.name === PROJECT)?.runCount).toBe(1);
  });

  it('accepts config/update with the config as an object, as the client sync process sends it', async () => {
    // pluto/sync/process.py `upload_config` posts {"runId": id, "config": <dict>} (not a JSON string).
    const res = await client.postJson(client.urls.api, '/api/runs/config/update', {
      runId: client.runId,
      config: { warmup: 5 },
    });
    expect(res.status, res.text).toBe(200);
    const run = await read<RunDetails>(server, `/api/runs/details/${client.runId}`);
    expect(run.config).toMatchObject({ warmup: 5, epochs: 10, lr: 0.001 });
  });

  it('resumes the run of an externalId on a second create, as multi-node ranks do', async () => {
    const rank = (i: number) => new PlutoClient(client.urls, server.key, PROJECT, `rank-${i}`);
    const body = (i: number): PyValue => ({
      runName: `rank-${i}`,
      projectName: PROJECT,
      externalId: 'ddp-job-42',
      config: null,
      loggerSettings: pyDumps({ rank: i }),
      systemMetadata: null,
      tags: null,
      createdAt: null,
      updatedAt: null,
    });
    const answersOfRanks = await Promise.all(
      [0, 1, 2, 3].map((i) => rank(i).postJson(client.urls.api, '/api/runs/create', body(i))),
    );
    expect(answersOfRanks.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const refs = answersOfRanks.map((a) => a.body as { runId: number; resumed: boolean });
    expect(new Set(refs.map((r) => r.runId)).size).toBe(1);
    expect(refs.filter((r) => !r.resumed)).toHaveLength(1);
  });

  it('refuses ingest with X-Run-Id None with a 400 and stays up', async () => {
    const orphan = new PlutoClient(client.urls, server.key, PROJECT, 'orphan');
    const res = await orphan.postNdjson('/ingest/metrics', [{ time: t0, step: 1, data: { loss: 1 } }]);
    expect(res.status).toBe(400);
    expect(typeof (res.body as { error?: unknown }).error).toBe('string');
    expect((await fetch(`${server.baseUrl}/api/health`)).status).toBe(200);
  });

  it('refuses a tampered upload link with 403', async () => {
    const res = await client.postJson(client.urls.ingest, '/files', {
      files: [{ fileName: 'x.bin', fileSize: 1, fileType: 'bin', time: t0, logName: 'samples', step: 1 }],
    });
    const url = ((res.body as Record<string, Record<string, string>[]>).samples ?? [])[0]?.['x.bin'];
    expect(url).toBeTypeOf('string');
    const tampered = url!.replace(/sig=./, (m) => (m.endsWith('A') ? 'sig=B' : 'sig=A'));
    expect((await client.putFile(tampered, Buffer.from('x'), 'application/octet-stream')).status).toBe(403);
  });
});

const portsNote =
  plutoPortsBusy.length > 0 ? ` (skipped: port ${plutoPortsBusy.join(', ')} already in use on this machine)` : '';

describe('stepwise serve --pluto-ports', () => {
  it.skipIf(plutoPortsBusy.length > 0)(
    `answers the same app on 3001, 3003 and 3004 as pluto.init(settings={"host": "localhost"}) expects${portsNote}`,
    async () => {
      const server = await spawnServer(['--pluto-ports']);
      try {
        for (const port of [3001, 3003, 3004]) {
          const res = await fetch(`http://localhost:${port}/api/health`);
          expect(res.status, `port ${port}`).toBe(200);
        }
        const client = new PlutoClient(
          { api: 'http://localhost:3001', ingest: 'http://localhost:3003', py: 'http://localhost:3004' },
          server.key,
          'ports',
          'r',
        );
        expect((await client.login()).status).toBe(200);
        const create = await client.postJson(client.urls.api, '/api/runs/create', {
          runName: 'r',
          projectName: 'ports',
          externalId: null,
          config: null,
          loggerSettings: null,
          systemMetadata: null,
          tags: null,
          createdAt: null,
          updatedAt: null,
        });
        expect(create.status, create.text).toBe(200);
        client.runId = (create.body as { runId: number }).runId;
        const ingest = await client.postNdjson('/ingest/metrics', [
          { time: 1_000, step: 1, data: { loss: Number.NaN } },
          { time: 1_001, step: 2, data: { loss: 0.5 } },
        ]);
        expect(ingest.status, ingest.text).toBe(200);
        expect((await client.postJson(client.urls.py, '/api/runs/trigger', { runId: client.runId })).body).toEqual({
          status: 'RUNNING',
        });
        // All three ports and the main port see the same data.
        const { metrics } = await read<{ metrics: MetricPoint[] }>(server, `/api/runs/metrics?runId=${client.runId}`);
        expect(metrics.map((p) => [p.step, p.value])).toEqual([
          [1, null],
          [2, 0.5],
        ]);
      } finally {
        await server.stop();
      }
      for (const port of [3001, 3003, 3004])
        expect(await portInUse(port), `port ${port} released after stop`).toBe(false);
    },
    120_000,
  );
});
