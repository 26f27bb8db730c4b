/**
 * The size rules of upload links: the bytes must be exactly the declared fileSize (more and
 * fewer are refused and nothing is stored), POST /files refuses a fileSize over the
 * configured maximum, and a finished upload cannot be replaced through its link.
 */
import { Readable } from 'node:stream';
import { beforeEach, describe, expect, it } from 'vitest';
import { createRun, expectError } from '../helpers/run-api.js';
import { call, type Reply, useTestApp } from '../helpers/test-app.js';
import { getOk, qs } from '../helpers/ingest-api.js';
import type { RunFile } from '../../src/api/schemas/files.js';
import type { RunRef } from '../../src/api/schemas/runs.js';

const t = useTestApp();
let run: RunRef;
beforeEach(async () => {
  run = await createRun(t.app, t.key, { runName: 'r', projectName: 'media' });
});

/** POST /files for one file of `fileSize` bytes; returns its upload link as path?query. */
async function linkFor(fileName: string, fileSize: number): Promise<string> {
  const res = await call(
    t.app,
    'POST',
    '/files',
    t.key,
    { files: [{ fileName, logName: 'up', fileSize, fileType: 'bin', step: 0, time: 1 }] },
    { 'x-run-id': String(run.runId), 'x-project-name': 'media' },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const url = new URL((res.body.up as Record<string, string>[])[0]![fileName]!);
  return url.pathname + url.search;
}

/** PUTs bytes (with Content-Length) or a stream of pieces (chunked) to a link. */
const put = (link: string, payload: Buffer | Readable) =>
  t.app.inject({ method: 'PUT', url: link, headers: { 'content-type': 'application/octet-stream' }, payload });

/** The PUT's answer as a Reply (for expectError). */
const putReply = async (link: string, payload: Buffer | Readable): Promise<Reply> => {
  const res = await put(link, payload);
  return { status: res.statusCode, body: res.json(), headers: res.headers };
};

/** A chunked body of `pieces` 2-byte pieces. */
const chunked = (pieces: number) => Readable.from(Array.from({ length: pieces }, (_v, i) => Buffer.from(`${i % 10}x`)));

const listed = async () =>
  (await getOk<{ files: RunFile[] }>(t.app, t.key, `/api/runs/files?${qs({ runId: run.runId })}`)).files;

const download = async (file: RunFile) => {
  const url = new URL(file.url);
  return (await t.app.inject({ method: 'GET', url: url.pathname + url.search })).rawPayload;
};

describe('an upload link takes exactly the declared fileSize', () => {
  const refused = [
    { name: '6 bytes with Content-Length', body: () => Buffer.from('123456'), status: 413 },
    { name: '4 bytes with Content-Length', body: () => Buffer.from('1234'), status: 400 },
    { name: '200 kB with Content-Length', body: () => Buffer.alloc(200_000, 7), status: 413 },
    { name: 'a chunked body of 10 bytes', body: () => chunked(5), status: 413 },
    { name: 'a chunked body of 4 bytes', body: () => chunked(2), status: 400 },
  ];
  it.each(refused)('refuses $name for a 5-byte file with $status and stores nothing', async ({ body, status }) => {
    const link = await linkFor('five.bin', 5);
    const res = await put(link, body());
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject({ error: expect.any(String), code: expect.stringMatching(/^[A-Z_]+$/) });
    expect(await listed()).toEqual([]);
    expect(await t.deps.blobs.stat(decodeURIComponent(link.split('?')[0]!.replace('/files/upload/', '')))).toBe(
      undefined,
    );
    const retry = await put(link, Buffer.from('12345'));
    expect(retry.statusCode, retry.body).toBe(200);
    expect((await listed()).map((f) => f.fileSize)).toEqual([5]);
  });

  it('accepts the declared size sent chunked', async () => {
    const res = await put(await linkFor('ten.bin', 10), chunked(5));
    expect(res.statusCode, res.body).toBe(200);
    const [file] = await listed();
    expect((await download(file!)).toString()).toBe('0x1x2x3x4x');
  });
});

describe('a finished upload cannot be replaced through its link', () => {
  it('answers a second PUT with 409, keeping the first size and bytes', async () => {
    const link = await linkFor('once.bin', 5);
    expect((await put(link, Buffer.from('first'))).statusCode).toBe(200);
    for (const again of [Buffer.from('other'), Buffer.alloc(200_000, 1), chunked(3)]) {
      expectError(await putReply(link, again), 409, 'CONFLICT');
    }
    const [file] = await listed();
    expect(file?.fileSize).toBe(5);
    expect((await download(file!)).toString()).toBe('first');
  });

  it('answers 404 on the link of a file that was requested again (the new link is the one to use)', async () => {
    const old = await linkFor('again.bin', 3);
    const fresh = await linkFor('again.bin', 3);
    expectError(await putReply(old, Buffer.from('old')), 404);
    expect((await put(fresh, Buffer.from('new'))).statusCode).toBe(200);
    expect((await download((await listed())[0]!)).toString()).toBe('new');
  });
});

describe('POST /files and the largest upload', () => {
  it('refuses a fileSize over STEPWISE_UPLOAD_MAX_BYTES with 413 and accepts one at it', async () => {
    t.deps.config.uploadMaxBytes = 1000;
    const over = await call(
      t.app,
      'POST',
      '/files',
      t.key,
      { files: [{ fileName: 'big.bin', logName: 'up', fileSize: 1001, fileType: 'bin' }] },
      { 'x-run-id': String(run.runId), 'x-project-name': 'media' },
    );
    expectError(over, 413, 'PAYLOAD_TOO_LARGE');
    expect(await linkFor('fits.bin', 1000)).toMatch(/^\/files\/upload\//);
  });
});
