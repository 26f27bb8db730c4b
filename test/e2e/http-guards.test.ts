/**
 * Guards that only a real HTTP server shows: configured body limits answered 413 (with and
 * without Content-Length), malformed HTTP and oversized headers answered with {error, code},
 * CR/LF in a stored name never reaching a response header, the periodic stale-run sweep,
 * and API keys absent from the debug log and stored only as hashes.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http as request, ingestHttp, pause } from '../helpers/http-client.js';
import { buildDist, REPO_ROOT, spawnServer, type SpawnedServer } from '../helpers/spawned-server.js';

const JSON_LIMIT = 65_536;
const INGEST_LIMIT = 262_144;
let server: SpawnedServer;
let runId: number;
const PROJECT = 'guards';

beforeAll(async () => {
  await buildDist();
  server = await spawnServer([], {
    env: {
      STEPWISE_JSON_BODY_LIMIT: String(JSON_LIMIT),
      STEPWISE_INGEST_BODY_LIMIT: String(INGEST_LIMIT),
      STEPWISE_STALE_AFTER: '1s',
      STEPWISE_LOG_LEVEL: 'debug',
    },
  });
  const res = await request(server.baseUrl, 'POST', '/api/runs/create', {
    key: server.key,
    json: { runName: 'g', projectName: PROJECT },
  });
  runId = res.body.runId as number;
}, 300_000);
afterAll(async () => {
  await server?.stop();
});

/** Sends raw bytes and returns the raw answer (until the server closes or 2 s pass). */
function raw(bytes: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(server.port, '127.0.0.1', () => socket.write(bytes));
    let answer = '';
    socket.setTimeout(2000, () => socket.end());
    socket.on('data', (c: Buffer) => (answer += c.toString('latin1')));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

/** POSTs a body with chunked transfer encoding (no Content-Length). */
function chunked(
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${server.baseUrl}${url}`,
      { method: 'POST', headers: { ...headers, authorization: `Bearer ${server.key}` } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    for (let i = 0; i < body.length; i += 16_384) req.write(body.slice(i, i + 16_384));
    req.end();
  });
}

const configOf = (bytes: number) => JSON.stringify({ runId, config: JSON.stringify({ pad: 'x'.repeat(bytes) }) });
const metricsOf = (bytes: number) => {
  const lines: string[] = [];
  for (let step = 0, size = 0; size < bytes; step++) {
    const line = JSON.stringify({ time: 1, step, data: { 'g/m': step } });
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
};

describe('request size limits over HTTP', () => {
  const cases = [
    {
      name: 'a JSON body',
      url: '/api/runs/config/update',
      type: 'application/json',
      body: configOf,
      limit: JSON_LIMIT,
    },
    {
      name: 'an ingest body',
      url: '/ingest/metrics',
      type: 'application/x-ndjson',
      body: metricsOf,
      limit: INGEST_LIMIT,
    },
  ];
  it.each(cases)(
    '$name under the configured limit is accepted, over it is a 413, with or without Content-Length',
    async (c) => {
      const headers = { 'content-type': c.type, 'x-run-id': String(runId), 'x-project-name': PROJECT };
      const under = await request(server.baseUrl, 'POST', c.url, {
        key: server.key,
        body: c.body(c.limit - 4096),
        headers,
      });
      expect(under.status, JSON.stringify(under.body)).toBe(200);
      const over = await request(server.baseUrl, 'POST', c.url, {
        key: server.key,
        body: c.body(c.limit + 4096),
        headers,
      });
      expect(over.status).toBe(413);
      expect(over.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', error: expect.any(String) });
      const streamed = await chunked(c.url, c.body(c.limit * 3), headers);
      expect(streamed.status).toBe(413);
      expect(JSON.parse(streamed.body)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
      expect((await request(server.baseUrl, 'GET', '/api/health')).status).toBe(200);
    },
  );

  it('refuses a body that is not valid UTF-8 with a 400', async () => {
    const bad = Buffer.concat([
      Buffer.from('{"time":1,"step":0,"data":{"g/'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('":1}}'),
    ]);
    const res = await request(server.baseUrl, 'POST', '/ingest/metrics', {
      key: server.key,
      body: bad,
      headers: { 'content-type': 'application/x-ndjson', 'x-run-id': String(runId) },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', error: 'body is not valid UTF-8' });
  });
});

describe('malformed HTTP', () => {
  const cases: { name: string; bytes: string | Buffer; status: number }[] = [
    {
      name: 'a NUL byte in a header value',
      bytes: `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Project-Name: a\u0000b\r\n\r\n`,
      status: 400,
    },
    {
      name: 'a bare CR in a header value',
      bytes: `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Run-Id: 1\rX-Evil: 1\r\n\r\n`,
      status: 400,
    },
    {
      name: 'a space before the colon of a header name',
      bytes: `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Run-Id : 1\r\n\r\n`,
      status: 400,
    },
    {
      name: 'both Content-Length and Transfer-Encoding',
      bytes: `POST /api/slug HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      status: 400,
    },
    {
      name: 'a 100 kB URL',
      bytes: `GET /api/runs/logs?runId=${'1'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      status: 431,
    },
    { name: 'a request line that is not HTTP', bytes: 'HELLO WORLD\r\n\r\n', status: 400 },
  ];
  it.each(cases)('answers $name with $status and {error, code}, and keeps serving', async ({ bytes, status }) => {
    const answer = await raw(bytes);
    expect(answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(answer.toLowerCase()).toContain('x-content-type-options: nosniff');
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
    expect(body).toMatchObject({ error: expect.any(String), code: expect.stringMatching(/^[A-Z_]+$/) });
    expect((await request(server.baseUrl, 'GET', '/api/health')).status).toBe(200);
  });

  it('refuses CR LF in a file name, and never lets a file name into a response header unencoded', async () => {
    const headers = { 'x-run-id': String(runId), 'x-project-name': PROJECT };
    const upload = async (fileName: string) =>
      request(server.baseUrl, 'POST', '/files', {
        key: server.key,
        json: { files: [{ fileName, logName: 'f', fileSize: 2, fileType: 'txt' }] },
        headers,
      });
    const crlf = await upload('a\r\nSet-Cookie: stolen=1.txt');
    expect(crlf.status).toBe(400);
    expect(crlf.body).toMatchObject({ code: 'BAD_REQUEST' });
    const fileName = 'é; filename="evil.html"; x=\'.txt';
    const links = await upload(fileName);
    expect(links.status).toBe(200);
    expect(
      (await fetch((links.body.f as Record<string, string>[])[0]![fileName]!, { method: 'PUT', body: 'ok' })).status,
    ).toBe(200);
    const files = await request(server.baseUrl, 'GET', `/api/runs/files?runId=${runId}`, { key: server.key });
    const url = (files.body.files as { fileName: string; url: string }[]).find((f) => f.fileName === fileName)!.url;
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('the stale-run sweep of the server process', () => {
  it('fails a silent run within a few sweeps, and a later ingest resumes it', async () => {
    const created = await request(server.baseUrl, 'POST', '/api/runs/create', {
      key: server.key,
      json: { runName: 'quiet', projectName: PROJECT },
    });
    const id = created.body.runId as number;
    const status = async () =>
      (await request(server.baseUrl, 'GET', `/api/runs/details/${id}`, { key: server.key })).body.status;
    for (let i = 0; i < 40 && (await status()) !== 'FAILED'; i++) await pause(100);
    expect(await status()).toBe('FAILED');
    const ingest = await ingestHttp(
      server.baseUrl,
      server.key,
      'metrics',
      id,
      PROJECT,
      '{"time":1,"step":0,"data":{"m":1}}',
    );
    expect(ingest.status).toBe(200);
    expect(await status()).toBe('RUNNING');
    const history = await request(server.baseUrl, 'GET', `/api/runs/status/history?runId=${id}`, { key: server.key });
    const events = (history.body.events as { toStatus: string; source: string; metadata: unknown }[]).map(
      (e) => `${e.toStatus}:${e.source}`,
    );
    expect(events).toEqual(['RUNNING:api', 'FAILED:system', 'RUNNING:resume']);
  });
});

describe('API keys at rest and in the log', () => {
  it('are stored only as SHA-256 hashes and never written to the debug log, failed attempts included', async () => {
    const cli = async (...args: string[]) =>
      (
        await promisify(execFile)(process.execPath, [
          path.join(REPO_ROOT, 'bin/stepwise.js'),
          'keys',
          ...args,
          '--data',
          server.dataDir,
        ])
      ).stdout
        .trim()
        .split('\n')
        .pop()!;
    const extra = await cli('create', '--org', 'other', '--user', 'u', '--name', 'n');
    const expired = await cli(
      'create',
      '--org',
      'other',
      '--user',
      'u',
      '--name',
      'old',
      '--expires',
      '2001-01-01T00:00:00Z',
    );
    const revoked = await cli('create', '--org', 'other', '--user', 'u', '--name', 'gone');
    await cli('revoke', revoked);
    const unknown = `sw_${'z'.repeat(43)}`;
    const statuses: number[] = [];
    for (const key of [server.key, extra, expired, revoked, unknown]) {
      for (const url of ['/api/runs/projects', `/api/runs/details/${runId}`, '/api/runs/nowhere']) {
        statuses.push((await request(server.baseUrl, 'GET', url, { key })).status);
      }
      statuses.push((await ingestHttp(server.baseUrl, key, 'metrics', runId, PROJECT, '{bad')).status);
    }
    expect(statuses).toContain(401);
    const logLines = server
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'));
    expect(logLines.some((l) => l.includes('"level":20') || l.includes('"level":30'))).toBe(true);
    const log = logLines.join('\n');
    for (const key of [server.key, extra, expired, revoked, unknown]) {
      expect(log).not.toContain(key);
      expect(log).not.toContain(createHash('sha256').update(key).digest('hex'));
    }
    const stored = ['stepwise.db', 'stepwise.db-wal']
      .map((f) => path.join(server.dataDir, f))
      .filter((f) => fs.existsSync(f))
      .map((f) => fs.readFileSync(f).toString('latin1'))
      .join('');
    for (const key of [server.key, extra, expired, revoked]) {
      expect(stored).not.toContain(key);
      expect(stored).toContain(createHash('sha256').update(key).digest('hex'));
    }
  });
});
