/**
 * Upload links over real HTTP (issue 14, finding 4): a link takes exactly the declared
 * fileSize once. Oversized bodies (with Content-Length or chunked) are refused with a 4xx and
 * store nothing, a second PUT cannot replace a finished file, and an upload in flight holds
 * admission like an ingest body (the server here admits one write at a time).
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http as request, ingestHttp } from '../helpers/http-client.js';
import { openSlowRequest } from '../helpers/slow-client.js';
import { buildDist, spawnServer, type SpawnedServer } from '../helpers/spawned-server.js';

const PROJECT = 'uploads';
let server: SpawnedServer;
let runId: number;

beforeAll(async () => {
  await buildDist();
  server = await spawnServer([], { env: { STEPWISE_INGEST_MAX_INFLIGHT: '1', STEPWISE_BODY_TIMEOUT: '5s' } });
  const res = await request(server.baseUrl, 'POST', '/api/runs/create', {
    key: server.key,
    json: { runName: 'u', projectName: PROJECT },
  });
  runId = res.body.runId as number;
}, 300_000);
afterAll(async () => {
  await server?.stop();
});

const headers = () => ({ 'x-run-id': String(runId), 'x-project-name': PROJECT });

/** POST /files for one file; returns its absolute upload link. */
async function linkFor(fileName: string, fileSize: number): Promise<string> {
  const res = await request(server.baseUrl, 'POST', '/files', {
    key: server.key,
    headers: headers(),
    json: { files: [{ fileName, logName: 'up', fileSize, fileType: 'bin', step: 0, time: 1 }] },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.up as Record<string, string>[])[0]![fileName]!;
}

/** PUTs `size` bytes in 64 kB chunks with chunked transfer encoding; resolves with the status. */
function putChunked(url: string, size: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    const piece = Buffer.alloc(64 * 1024, 1);
    const more = (left: number): void => {
      if (left <= 0 || req.destroyed) return void req.end();
      if (req.write(piece.subarray(0, Math.min(left, piece.length)))) return more(left - piece.length);
      req.once('drain', () => more(left - piece.length));
    };
    more(size);
  });
}

const put = (url: string, body: Buffer) =>
  fetch(url, { method: 'PUT', body: new Uint8Array(body), headers: { 'content-type': 'application/octet-stream' } });

async function listed(): Promise<{ fileName: string; fileSize: number; url: string }[]> {
  const res = await request(server.baseUrl, 'GET', `/api/runs/files?runId=${runId}`, { key: server.key });
  return res.body.files as { fileName: string; fileSize: number; url: string }[];
}

describe('upload links over HTTP', () => {
  it('refuse 20 MB and a 4 MB chunked body for a 5-byte file with 413, storing nothing', async () => {
    const url = await linkFor('small.bin', 5);
    const big = await put(url, Buffer.alloc(20 * 1024 * 1024, 2));
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', error: expect.any(String) });
    expect(await putChunked(url, 4 * 1024 * 1024)).toBe(413);
    expect((await listed()).filter((f) => f.fileName === 'small.bin')).toEqual([]);
  });

  it('refuse a second PUT on a finished link with 409; the listing and the bytes stay the first', async () => {
    const url = await linkFor('once.bin', 5);
    expect((await put(url, Buffer.from('first'))).status).toBe(200);
    const again = await put(url, Buffer.from('other'));
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 'CONFLICT' });
    expect(await putChunked(url, 200 * 1024 * 1024)).toBe(409);
    const [file] = (await listed()).filter((f) => f.fileName === 'once.bin');
    expect(file?.fileSize).toBe(5);
    expect(await (await fetch(file!.url)).text()).toBe('first');
  });

  it('count an upload in flight against admission: ingest waits (503) until the upload ends', async () => {
    const url = new URL(await linkFor('slow.bin', 10));
    const upload = openSlowRequest(server.port, 'PUT', url.pathname + url.search, {
      'content-type': 'application/octet-stream',
      'content-length': '10',
      connection: 'close',
    });
    upload.write('12345');
    await new Promise((r) => setTimeout(r, 300));
    const ingest = () =>
      ingestHttp(server.baseUrl, server.key, 'metrics', runId, PROJECT, '{"time":1,"step":0,"data":{"m":1}}');
    const during = await ingest();
    upload.write('67890');
    const done = await upload.outcome.catch(() => undefined);
    const after = await ingest();
    console.log(
      `[reliability] upload admission: ingestDuringUpload=${during.status} upload=${done?.status} ingestAfter=${after.status}`,
    );
    expect(during.status).toBe(503);
    expect(during.headers.get('retry-after')).toBe('1');
    expect(after.status).toBe(200);
  });

  it('cut a stalled upload with 408 after the body deadline and keep nothing of it', async () => {
    const url = new URL(await linkFor('stalled.bin', 1000));
    const upload = openSlowRequest(server.port, 'PUT', url.pathname + url.search, {
      'content-type': 'application/octet-stream',
      'content-length': '1000',
    });
    upload.write('x'.repeat(10));
    const outcome = await upload.outcome;
    expect(outcome.status).toBe(408);
    expect(outcome.afterMs).toBeLessThan(5000 + 2500);
    expect((await listed()).filter((f) => f.fileName === 'stalled.bin')).toEqual([]);
    expect((await put(url.href, Buffer.alloc(1000, 3))).status).toBe(200);
  }, 30_000);
});
