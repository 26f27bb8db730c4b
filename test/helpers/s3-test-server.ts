/**
 * A real S3-compatible server for tests: s3rver (npm, in-process, files under a temp dir)
 * behind a small proxy that checks the SigV4 signature of presigned requests, which s3rver
 * itself does not (it checks their expiry only). So a tampered presigned link gets the 403
 * that real S3 gives. Requests signed in headers (the SDK's own calls) pass through.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/** s3rver's built-in account. */
export const S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

/** A running test S3 server with one bucket. */
export interface S3TestServer {
  /** `http://127.0.0.1:<port>` (the verifying proxy). */
  endpoint: string;
  bucket: string;
  /** A blob URL for Stepwise: `s3://<bucket>/<prefix>?endpoint=…&region=us-east-1&forcePathStyle=true`. */
  blobUrl(prefix: string): string;
  stop(): Promise<void>;
}

const rfc3986 = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

/** True when a presigned (query-string SigV4) request carries the signature of its method, path and query. */
export function presignedSignatureValid(req: http.IncomingMessage, secret: string): boolean {
  const url = new URL(req.url ?? '/', 'http://x');
  const given = url.searchParams.get('X-Amz-Signature') ?? '';
  const [, date = '', region = '', service = ''] = (url.searchParams.get('X-Amz-Credential') ?? '').split('/');
  const amzDate = url.searchParams.get('X-Amz-Date') ?? '';
  const signed = (url.searchParams.get('X-Amz-SignedHeaders') ?? '').split(';');
  const query = [...url.searchParams.entries()]
    .filter(([k]) => k !== 'X-Amz-Signature')
    .map(([k, v]) => `${rfc3986(k)}=${rfc3986(v)}`)
    .sort()
    .join('&');
  const headers = signed.map((h) => `${h}:${String(req.headers[h] ?? '').trim()}\n`).join('');
  const canonical = [req.method, url.pathname, query, headers, signed.join(';'), 'UNSIGNED-PAYLOAD'].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, createHash('sha256').update(canonical).digest('hex')].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
  const expected = Buffer.from(createHmac('sha256', key).update(toSign).digest('hex'));
  return expected.length === given.length && timingSafeEqual(expected, Buffer.from(given));
}

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

/** Starts s3rver with bucket `stepwise-test` and the verifying proxy in front of it. */
export async function startS3TestServer(): Promise<S3TestServer> {
  const bucket = 'stepwise-test';
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-s3-'));
  const s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port: s3Port } = await s3.run();
  const proxy = http.createServer((req, res) => {
    if ((req.url ?? '').includes('X-Amz-Signature=') && !presignedSignatureValid(req, S3_CREDENTIALS.secretAccessKey)) {
      res.writeHead(403, { 'content-type': 'application/xml' });
      res.end('<?xml version="1.0"?><Error><Code>SignatureDoesNotMatch</Code></Error>');
      req.resume();
      return;
    }
    const upstream = http.request(
      { host: '127.0.0.1', port: s3Port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  const port = await listen(proxy);
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    blobUrl: (prefix) =>
      `s3://${bucket}/${prefix}?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1&forcePathStyle=true`,
    stop: async () => {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
      await s3.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
