/**
 * The BlobStore conformance suite: every backend runs it (the local directory and S3),
 * each test on a fresh store from `open`. Links are exercised over real HTTP with no API
 * key, the way the Python client and a browser use them.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { BlobStore } from '../../src/blob/blob-store.js';
import { AppError } from '../../src/errors.js';

/** Opens a fresh, empty store whose links answer over HTTP; close() releases it. */
export type OpenBlobStore = () => Promise<{ blobs: BlobStore; close: () => Promise<void> }>;

const DAY = 24 * 60 * 60 * 1000;

function withStore(open: OpenBlobStore, fn: (b: BlobStore) => Promise<void>): () => Promise<void> {
  return async () => {
    const store = await open();
    try {
      await fn(store.blobs);
    } finally {
      await store.close();
    }
  };
}

/** The body in pieces of at most `piece` bytes, as a stream. */
const pieces = (body: Buffer, piece = 64 * 1024) =>
  Readable.from(
    (function* () {
      for (let i = 0; i < body.length; i += piece) yield body.subarray(i, i + piece);
    })(),
  );

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * The status of a GET of url on a connection of its own (no keep-alive pool shared with
 * other requests), the body read; rejects naming the URL when no answer comes in 15 s.
 */
function statusOf(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, timeout: 15_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer in 15 s to GET ${url}`)));
    req.on('error', reject);
  });
}

/** Returns the URL with one character of its signature changed. */
function tamperSignature(url: string): string {
  return url.replace(/((?:sig|X-Amz-Signature)=)(.)/, (_m, head: string, c: string) => head + (c === 'a' ? 'b' : 'a'));
}

/** Registers the conformance tests of a BlobStore backend under `name`. */
export function blobStoreSuite(name: string, open: OpenBlobStore): void {
  describe(`BlobStore conformance (${name})`, () => {
    it(
      'streams a 6 MB body given in pieces and reads back the same bytes and size',
      withStore(open, async (b) => {
        const body = randomBytes(6 * 1024 * 1024 + 123);
        expect(await b.put('1/2/a/big.bin', pieces(body))).toBe(body.length);
        const { stream, size } = await b.get('1/2/a/big.bin');
        expect(size).toBe(body.length);
        expect((await readAll(stream)).equals(body)).toBe(true);
      }),
    );

    it(
      'deletes a blob (its bytes gone, the key missing), and deleting a missing key is no error',
      withStore(open, async (b) => {
        await b.put('1/2/a/doomed.bin', Readable.from([Buffer.from('bytes')]));
        expect(await b.stat('1/2/a/doomed.bin')).toBe(5);
        await b.delete('1/2/a/doomed.bin');
        expect(await b.stat('1/2/a/doomed.bin')).toBeUndefined();
        await expect(b.get('1/2/a/doomed.bin')).rejects.toMatchObject({ code: 'NOT_FOUND' });
        await b.delete('1/2/a/doomed.bin');
        await b.delete('1/2/never/there.bin');
      }),
    );

    it(
      'replaces a blob written again under the same key',
      withStore(open, async (b) => {
        await b.put('1/2/k/f.txt', Readable.from([Buffer.from('first version')]));
        await b.put('1/2/k/f.txt', Readable.from([Buffer.from('second')]));
        const { stream, size } = await b.get('1/2/k/f.txt');
        expect(size).toBe(6);
        expect((await readAll(stream)).toString()).toBe('second');
      }),
    );

    it(
      'put with ifAbsent refuses to replace a stored blob with CONFLICT and leaves it whole',
      withStore(open, async (b) => {
        await b.put('1/2/k/once.txt', Readable.from([Buffer.from('first')]), { ifAbsent: true });
        const err: unknown = await b
          .put('1/2/k/once.txt', Readable.from([Buffer.from('second!')]), { ifAbsent: true })
          .catch((e: unknown) => e);
        expect((err as AppError).code).toBe('CONFLICT');
        expect((await readAll((await b.get('1/2/k/once.txt')).stream)).toString()).toBe('first');
      }),
    );

    it(
      'an upload link for 5 bytes refuses 6 bytes, 4 bytes and a chunked body, and stores nothing',
      withStore(open, async (b) => {
        const url = await b.uploadUrl('1/2/u/five.bin', 5);
        const send = async (body: BodyInit) => {
          const res = await fetch(url, { method: 'PUT', body, duplex: 'half' } as RequestInit);
          await res.arrayBuffer();
          return res.status;
        };
        expect(await send(Buffer.from('123456'))).toBeGreaterThanOrEqual(400);
        expect(await send(Buffer.from('1234'))).toBeGreaterThanOrEqual(400);
        expect(
          await send(Readable.toWeb(pieces(Buffer.from('1234567890'), 2)) as ReadableStream),
        ).toBeGreaterThanOrEqual(400);
        expect(await b.stat('1/2/u/five.bin')).toBeUndefined();
        expect(await send(Buffer.from('12345'))).toBe(200);
        expect(await b.stat('1/2/u/five.bin')).toBe(5);
      }),
    );

    it(
      'stat gives the size of a stored blob, and undefined for a missing one',
      withStore(open, async (b) => {
        await b.put('1/2/s/x.bin', Readable.from([Buffer.alloc(1000, 1)]));
        expect(await b.stat('1/2/s/x.bin')).toBe(1000);
        expect(await b.stat('1/2/s/missing.bin')).toBeUndefined();
      }),
    );

    it(
      'get of a missing key throws NOT_FOUND',
      withStore(open, async (b) => {
        const err: unknown = await b.get('1/2/none/x.bin').catch((e: unknown) => e);
        expect(err).toBeInstanceOf(AppError);
        expect((err as AppError).code).toBe('NOT_FOUND');
      }),
    );

    it(
      'a PUT of raw bytes to the upload link stores them, with no API key',
      withStore(open, async (b) => {
        const body = randomBytes(300_000);
        const res = await fetch(await b.uploadUrl('1/2/u/upload.bin', body.length), {
          method: 'PUT',
          body,
          headers: { 'content-type': 'application/octet-stream' },
        });
        expect(res.status).toBe(200);
        await res.arrayBuffer();
        expect(await b.stat('1/2/u/upload.bin')).toBe(body.length);
        expect((await readAll((await b.get('1/2/u/upload.bin')).stream)).equals(body)).toBe(true);
      }),
    );

    it(
      'the download link serves the bytes with no API key; keys with spaces and non-ASCII work',
      withStore(open, async (b) => {
        const key = '1/2/my images/ünïcode name.png';
        await b.put(key, Readable.from([Buffer.from('picture bytes')]));
        const res = await fetch(await b.downloadUrl(key, 'ünïcode name.png', 5 * DAY));
        expect(res.status).toBe(200);
        expect(await res.text()).toBe('picture bytes');
      }),
    );

    it(
      'a download link with a changed signature or path is refused with 403',
      withStore(open, async (b) => {
        await b.put('1/2/t/a.txt', Readable.from([Buffer.from('secret')]));
        await b.put('1/2/t/b.txt', Readable.from([Buffer.from('other')]));
        const url = await b.downloadUrl('1/2/t/a.txt', 'a.txt', 5 * DAY);
        expect(await statusOf(tamperSignature(url))).toBe(403);
        expect(await statusOf(url.replace('/a.txt?', '/b.txt?'))).toBe(403);
        expect(await statusOf(url)).toBe(200);
      }),
    );

    it(
      'an expired download link is refused with 403',
      withStore(open, async (b) => {
        await b.put('1/2/e/a.txt', Readable.from([Buffer.from('old')]));
        const url = await b.downloadUrl('1/2/e/a.txt', 'a.txt', 1000);
        await new Promise((r) => setTimeout(r, 2200));
        expect(await statusOf(url)).toBe(403);
      }),
    );
  });
}
