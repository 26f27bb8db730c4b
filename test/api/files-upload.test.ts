import { randomBytes } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { createRun, expectError, getDetails } from '../helpers/run-api.js';
import { call, type Reply, useTestApp } from '../helpers/test-app.js';
import { getOk, ISO_MS, qs } from '../helpers/ingest-api.js';
import type { RunFile } from '../../src/api/schemas/files.js';
import type { RunRef } from '../../src/api/schemas/runs.js';

const t = useTestApp();
let run: RunRef;
beforeEach(async () => {
  run = await createRun(t.app, t.key, { runName: 'r', projectName: 'media' });
});

/** One file entry of POST /files, as the Python client builds it. */
interface FileEntry {
  fileName: string;
  logName: string;
  fileSize: number;
  fileType: string;
  step: number | null;
  time: number;
  sampleIndex?: number;
  caption?: string | null;
}

const entry = (fileName: string, over: Partial<FileEntry> = {}): FileEntry => ({
  fileName,
  logName: 'samples/images',
  fileSize: 4,
  fileType: fileName.split('.').pop() ?? '',
  step: 0,
  time: 1_700_000_000_000,
  ...over,
});

/** POST /files with the Python client's headers. */
const requestUploads = (
  files: FileEntry[],
  key = t.key,
  runId: string | number = run.runId,
  projectName = 'media',
): Promise<Reply> =>
  call(t.app, 'POST', '/files', key, { files }, { 'x-run-id': String(runId), 'x-project-name': projectName });

/** The path and query of an absolute URL (inject needs no origin). */
const local = (url: string): string => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

/** PUTs bytes to a signed upload link without an API key, as the client does. */
const put = (url: string, bytes: Buffer, contentType = 'application/octet-stream') =>
  t.app.inject({ method: 'PUT', url: local(url), headers: { 'content-type': contentType }, payload: bytes });

/** The upload URL the answer of POST /files gives for a file. */
function uploadUrlOf(body: Record<string, unknown>, logName: string, fileName: string): string {
  const list = body[logName] as Record<string, string>[] | undefined;
  const url = list?.find((m) => fileName in m)?.[fileName];
  expect(url, `no upload url for ${logName}/${fileName} in ${JSON.stringify(body)}`).toBeTypeOf('string');
  return url!;
}

const listFiles = (params: Record<string, string | number | undefined> = {}) =>
  getOk<{ files: RunFile[] }>(t.app, t.key, `/api/runs/files?${qs({ runId: run.runId, ...params })}`);

/** Requests, uploads and returns the listed file of one entry. */
async function upload(e: FileEntry, bytes: Buffer = Buffer.from('abcd')): Promise<void> {
  const res = await requestUploads([e]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const putRes = await put(uploadUrlOf(res.body, e.logName, e.fileName), bytes);
  expect(putRes.statusCode, putRes.body).toBe(200);
}

describe('POST /files and the signed upload link', () => {
  it('answers {"<logName>": [{"<fileName>": "<url>"}]} with absolute links of the server', async () => {
    const res = await requestUploads([entry('a.png'), entry('b.png'), entry('c.txt', { logName: 'notes' })]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['notes', 'samples/images']);
    const images = res.body['samples/images'] as Record<string, string>[];
    expect(images.map((m) => Object.keys(m))).toEqual([['a.png'], ['b.png']]);
    for (const url of [uploadUrlOf(res.body, 'samples/images', 'a.png'), uploadUrlOf(res.body, 'notes', 'c.txt')]) {
      expect(url.startsWith(`${t.deps.config.publicUrl}/`)).toBe(true);
      expect(new URL(url).search).not.toBe('');
    }
  });

  it('stores ~1 MB of random bytes and serves them back byte for byte through the listed link', async () => {
    const bytes = randomBytes(1024 * 1024 + 17);
    const e = entry('weights.bin', { logName: 'artifacts/ckpt', fileSize: bytes.length, fileType: 'bin', step: 3 });
    const res = await requestUploads([e]);
    const url = uploadUrlOf(res.body, e.logName, e.fileName);

    expect((await listFiles()).files).toEqual([]);
    const putRes = await put(url, bytes);
    expect(putRes.statusCode, putRes.body).toBe(200);

    const { files } = await listFiles();
    expect(files).toEqual([
      {
        fileName: 'weights.bin',
        fileType: 'bin',
        fileSize: bytes.length,
        logName: 'artifacts/ckpt',
        logGroup: 'artifacts',
        time: '2023-11-14T22:13:20.000Z',
        step: 3,
        caption: null,
        sampleIndex: 0,
        url: expect.any(String),
      },
    ]);
    expect(files[0]!.time).toMatch(ISO_MS);
    const download = await t.app.inject({ method: 'GET', url: local(files[0]!.url) });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(bytes)).toBe(true);
  });

  it('accepts the PUT with the MIME type the client sends as content type', async () => {
    const e = entry('img.png');
    const res = await requestUploads([e]);
    const putRes = await put(
      uploadUrlOf(res.body, e.logName, e.fileName),
      Buffer.from([0x89, 0x50, 0x4e, 0x47]),
      'image/png',
    );
    expect(putRes.statusCode, putRes.body).toBe(200);
    expect((await listFiles()).files.map((f) => f.fileName)).toEqual(['img.png']);
  });

  it('accepts an empty file', async () => {
    await upload(entry('empty.txt', { fileSize: 0 }), Buffer.alloc(0));
    const [file] = (await listFiles()).files;
    expect(file?.fileSize).toBe(0);
    const download = await t.app.inject({ method: 'GET', url: local(file!.url) });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.length).toBe(0);
  });

  it('registers the file logName on the run', async () => {
    await upload(entry('a.png'));
    const { logNames } = await getDetails(t.app, t.key, run.runId);
    expect(logNames).toEqual([{ logName: 'samples/images', logType: 'IMAGE', logGroup: 'samples' }]);
  });

  it('accepts the extra fields the client may send (caption, sampleIndex, annotations, explicit nulls)', async () => {
    const res = await call(
      t.app,
      'POST',
      '/files',
      t.key,
      {
        files: [{ ...entry('a.png'), caption: null, sampleIndex: null, annotations: '{"boxes": {}}', step: null }],
      },
      { 'x-run-id': String(run.runId), 'x-project-name': 'media' },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});

describe('GET /api/runs/files', () => {
  it('orders files by step, then sampleIndex, then fileName', async () => {
    const entries = [
      entry('z.png', { step: 2, sampleIndex: 0 }),
      entry('b.png', { step: 1, sampleIndex: 1 }),
      entry('a.png', { step: 1, sampleIndex: 1 }),
      entry('c.png', { step: 1, sampleIndex: 0 }),
      entry('y.png', { step: 0, sampleIndex: 5 }),
    ];
    for (const e of entries) await upload(e);
    expect((await listFiles()).files.map((f) => f.fileName)).toEqual(['y.png', 'c.png', 'a.png', 'b.png', 'z.png']);
  });

  it('answers the caption and sampleIndex each file was sent with (null caption and index 0 when left out)', async () => {
    await upload(entry('cat.png', { step: 1, caption: 'a cat, sitting', sampleIndex: 3 }));
    const plain: FileEntry = entry('plain.png', { step: 2 });
    await upload(plain);
    const files = (await listFiles()).files;
    expect(files.map((f) => [f.fileName, f.caption, f.sampleIndex])).toEqual([
      ['cat.png', 'a cat, sitting', 3],
      ['plain.png', null, 0],
    ]);
  });

  it('lists only files whose bytes have arrived', async () => {
    const res = await requestUploads([entry('sent.png', { fileSize: 1 }), entry('pending.png')]);
    await put(uploadUrlOf(res.body, 'samples/images', 'sent.png'), Buffer.from('x'));
    expect((await listFiles()).files.map((f) => f.fileName)).toEqual(['sent.png']);
  });

  it('filters by logName and by logGroup', async () => {
    await upload(entry('a.png', { logName: 'train/img' }));
    await upload(entry('b.png', { logName: 'train/other' }));
    await upload(entry('c.png', { logName: 'val/img' }));
    expect((await listFiles({ logName: 'train/img' })).files.map((f) => f.fileName)).toEqual(['a.png']);
    expect((await listFiles({ logGroup: 'train' })).files.map((f) => f.fileName)).toEqual(['a.png', 'b.png']);
    expect((await listFiles({ logGroup: 'none' })).files).toEqual([]);
  });

  it('answers 404 for an unknown run, a run of another organization, and a run of another project', async () => {
    expectError(await call(t.app, 'GET', '/api/runs/files?runId=987654', t.key), 404);
    expectError(await call(t.app, 'GET', `/api/runs/files?runId=${run.runId}`, t.otherKey), 404);
    expectError(await call(t.app, 'GET', `/api/runs/files?runId=${run.runId}&projectName=other`, t.key), 404);
  });
});

describe('Signed links refuse any change', () => {
  /** An uploaded file's upload link and download link. */
  async function links(): Promise<{ upload: string; download: string }> {
    const e = entry('secret.png');
    const res = await requestUploads([e]);
    const uploadLink = uploadUrlOf(res.body, e.logName, e.fileName);
    expect((await put(uploadLink, Buffer.from('data'))).statusCode).toBe(200);
    const [file] = (await listFiles()).files;
    return { upload: local(uploadLink), download: local(file!.url) };
  }

  const flipLast = (url: string): string => {
    const last = url.at(-1)!;
    return `${url.slice(0, -1)}${last === 'A' ? 'B' : 'A'}`;
  };
  const flipInSig = (url: string): string => url.replace(/sig=(.)/, (_m, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`);
  const changePath = (url: string): string => url.replace('secret.png', 'secres.png');
  const addParam = (url: string): string => `${url}&x=1`;
  const dropQuery = (url: string): string => url.split('?')[0]!;
  const laterExpiry = (url: string): string =>
    url.replace(/expires=(\d+)/, (_m, e: string) => `expires=${Number(e) + 1}`);

  const tampers: { name: string; change: (url: string) => string }[] = [
    { name: 'the last character of the signature changed', change: flipLast },
    { name: 'the first character of the signature changed', change: flipInSig },
    { name: 'the file name in the path changed', change: changePath },
    { name: 'a query parameter added', change: addParam },
    { name: 'the query removed', change: dropQuery },
    { name: 'the expiry moved', change: laterExpiry },
  ];
  for (const tamper of tampers) {
    it(`answers 403 with {error, code} for a download link with ${tamper.name}`, async () => {
      const { download } = await links();
      const res = await t.app.inject({ method: 'GET', url: tamper.change(download) });
      expect(res.statusCode).toBe(403);
      const body = res.json<{ error: unknown; code: unknown }>();
      expect(typeof body.error).toBe('string');
      expect(body.code).toMatch(/^[A-Z][A-Z0-9_]*$/);
    });

    it(`answers 403 for an upload link with ${tamper.name}, leaving the stored bytes alone`, async () => {
      const { upload, download } = await links();
      const res = await t.app.inject({
        method: 'PUT',
        url: tamper.change(upload),
        headers: { 'content-type': 'application/octet-stream' },
        payload: Buffer.from('evil'),
      });
      expect(res.statusCode).toBe(403);
      expect(typeof res.json<{ error: unknown }>().error).toBe('string');
      expect((await t.app.inject({ method: 'GET', url: download })).body).toBe('data');
    });
  }

  it('answers 403 for a download link used to upload and an upload link used to download', async () => {
    const { upload, download } = await links();
    const uploadPathAsGet = upload.replace('/files/upload/', '/files/download/');
    expect((await t.app.inject({ method: 'GET', url: uploadPathAsGet })).statusCode).toBe(403);
    const downloadPathAsPut = download.replace('/files/download/', '/files/upload/');
    const res = await t.app.inject({
      method: 'PUT',
      url: downloadPathAsPut,
      headers: { 'content-type': 'application/octet-stream' },
      payload: Buffer.from('evil'),
    });
    expect(res.statusCode).toBe(403);
  });

  it('answers 403 for an expired link', async () => {
    const { download } = await links();
    const path = download.split('?')[0]!;
    const expired = `${path}?${t.deps.signer.sign('GET', path, Date.now() - 60_000)}`;
    expect((await t.app.inject({ method: 'GET', url: expired })).statusCode).toBe(403);
    const fresh = `${path}?${t.deps.signer.sign('GET', path, Date.now() + 60_000)}`;
    expect((await t.app.inject({ method: 'GET', url: fresh })).statusCode).toBe(200);
  });

  it('makes download links valid for 5 days', async () => {
    const { download } = await links();
    const expires = Number(/expires=(\d+)/.exec(download)?.[1]) * 1000;
    const fiveDays = 5 * 24 * 60 * 60 * 1000;
    expect(Math.abs(expires - (Date.now() + fiveDays))).toBeLessThan(60_000);
  });
});

describe('POST /files refuses names that could escape the run storage', () => {
  const refused: { name: string; e: FileEntry }[] = [
    { name: 'a fileName with a slash', e: entry('dir/a.png') },
    { name: 'a fileName with a backslash', e: entry('dir\\a.png') },
    { name: 'the fileName ..', e: entry('..') },
    { name: 'the fileName .', e: entry('.') },
    { name: 'a fileName with a NUL', e: entry('a\u0000.png') },
    { name: 'a fileName that climbs up', e: entry('../../etc/passwd') },
    { name: 'a logName with a .. segment', e: entry('a.png', { logName: 'images/../../x' }) },
    { name: 'a logName that is ..', e: entry('a.png', { logName: '..' }) },
    { name: 'a logName with a . segment', e: entry('a.png', { logName: 'images/./x' }) },
  ];
  for (const r of refused) {
    it(`answers 400 for ${r.name} and registers nothing`, async () => {
      const res = await requestUploads([entry('fine.png', { logName: 'fine' }), r.e]);
      expectError(res, 400);
      expect((await getDetails(t.app, t.key, run.runId)).logNames).toEqual([]);
    });
  }

  it('round-trips file names with spaces, percent signs, # and ? and non-ASCII', async () => {
    const name = 'my file %41 #1? ü 学.png';
    const bytes = randomBytes(1000);
    await upload(entry(name, { logName: 'weird names/ü', fileSize: bytes.length }), bytes);
    const [file] = (await listFiles()).files;
    expect(file?.fileName).toBe(name);
    expect(file?.logName).toBe('weird names/ü');
    const download = await t.app.inject({ method: 'GET', url: local(file!.url) });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(bytes)).toBe(true);
  });

  it('accepts dots inside names that are not path segments', async () => {
    const res = await requestUploads([entry('..hidden..png', { logName: 'a..b/c.d' })]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});

describe('POST /files: the run headers', () => {
  it('answers 400 for X-Run-Id None, 404 for an unknown or foreign run, 400 for another project', async () => {
    expectError(await requestUploads([entry('a.png')], t.key, 'None'), 400);
    expectError(await requestUploads([entry('a.png')], t.key, 987_654), 404);
    expectError(await requestUploads([entry('a.png')], t.otherKey), 404);
    expectError(await requestUploads([entry('a.png')], t.key, run.runId, 'elsewhere'), 400);
  });

  it('answers 401 without an API key', async () => {
    const res = await call(
      t.app,
      'POST',
      '/files',
      null,
      { files: [entry('a.png')] },
      { 'x-run-id': String(run.runId) },
    );
    expect(res.status).toBe(401);
  });
});
