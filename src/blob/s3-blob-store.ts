/**
 * File bytes in an S3-compatible bucket (AWS S3, MinIO, s3rver, …) through the AWS SDK v3.
 * Clients upload with a presigned PUT straight to the bucket and download with a presigned
 * GET; bytes never pass through this server then. put()/get() stream (multipart upload in
 * 5 MiB parts), so no whole file is ever held in memory.
 */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { PassThrough, Readable } from 'node:stream';
import { conflict, notFound } from '../errors.js';
import type { BlobStore } from './blob-store.js';

/** Presigned upload links stay valid this long (S3 allows at most 7 days). */
const UPLOAD_TTL_S = 24 * 60 * 60;
/** The longest presigned link S3 accepts (SigV4: 7 days). */
const MAX_TTL_S = 7 * 24 * 60 * 60;

/** Where and how to reach the bucket, parsed from `s3://bucket/prefix?endpoint=…`. */
export interface S3Location {
  bucket: string;
  /** Key prefix without leading or trailing `/`; may be empty. */
  prefix: string;
  endpoint: string | undefined;
  region: string | undefined;
  forcePathStyle: boolean;
}

/**
 * Parses `s3://bucket/prefix?endpoint=http://host:port&region=…&forcePathStyle=true`.
 * Throws an Error when it is not an s3:// URL with a bucket.
 */
export function parseS3Url(url: string): S3Location {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error('blob URL is not a URL');
  }
  if (u.protocol !== 's3:' || u.hostname === '') throw new Error('blob URL must look like s3://bucket/prefix');
  const flag = u.searchParams.get('forcePathStyle');
  return {
    bucket: decodeURIComponent(u.hostname),
    prefix: decodeURIComponent(u.pathname).replace(/^\/+|\/+$/g, ''),
    endpoint: u.searchParams.get('endpoint') ?? undefined,
    region: u.searchParams.get('region') ?? undefined,
    forcePathStyle: flag === null ? u.searchParams.has('endpoint') : flag === 'true' || flag === '1',
  };
}

/** Options of S3BlobStore beyond the URL: credentials and a fallback region. */
export interface S3Options {
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } | undefined;
  region?: string | undefined;
}

const isMissing = (err: unknown): boolean =>
  err instanceof S3ServiceException &&
  (err.name === 'NotFound' || err.name === 'NoSuchKey' || err.$metadata.httpStatusCode === 404);

const alreadyStored = () => conflict('the file already has its bytes; it cannot be replaced');

/** A BlobStore over one bucket and key prefix. */
export class S3BlobStore implements BlobStore {
  readonly directUploads = true;
  private readonly client: S3Client;
  private readonly loc: S3Location;

  constructor(url: string, options: S3Options = {}) {
    this.loc = parseS3Url(url);
    const config: S3ClientConfig = {
      region: this.loc.region ?? options.region ?? 'us-east-1',
      forcePathStyle: this.loc.forcePathStyle,
      // Checksums only when S3 demands them: a presigned PUT must not pin the (empty) body's CRC.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...(this.loc.endpoint ? { endpoint: this.loc.endpoint } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
    };
    this.client = new S3Client(config);
  }

  private objectKey(key: string): string {
    return this.loc.prefix === '' ? key : `${this.loc.prefix}/${key}`;
  }

  /** Streams in 5 MiB parts; `ifAbsent` sends If-None-Match: * (S3 answers 412 rather than overwrite). */
  async put(key: string, body: Readable, options: { ifAbsent?: boolean } = {}): Promise<number> {
    // S3 itself refuses atomically (If-None-Match); the HEAD covers stores that ignore it.
    if (options.ifAbsent && (await this.stat(key)) !== undefined) throw alreadyStored();
    let size = 0;
    const counted = new PassThrough();
    counted.on('data', (chunk: Buffer) => (size += chunk.length));
    body.on('error', (err) => counted.destroy(err));
    body.pipe(counted);
    const upload = new Upload({
      client: this.client,
      params: {
        Bucket: this.loc.bucket,
        Key: this.objectKey(key),
        Body: counted,
        ...(options.ifAbsent ? { IfNoneMatch: '*' } : {}),
      },
      queueSize: 2,
      partSize: 5 * 1024 * 1024,
    });
    await upload.done().catch((err: unknown) => {
      const refused = err instanceof S3ServiceException && err.$metadata.httpStatusCode === 412;
      throw refused ? alreadyStored() : err;
    });
    return size;
  }

  async get(key: string): Promise<{ stream: Readable; size: number }> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.loc.bucket, Key: this.objectKey(key) }));
      if (!(out.Body instanceof Readable)) throw new Error('S3 answered without a body stream');
      return { stream: out.Body, size: Number(out.ContentLength ?? 0) };
    } catch (err) {
      if (isMissing(err)) throw notFound('file not found');
      throw err;
    }
  }

  /** S3 answers a DELETE of a missing key with success too. */
  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.loc.bucket, Key: this.objectKey(key) }));
  }

  async stat(key: string): Promise<number | undefined> {
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.loc.bucket, Key: this.objectKey(key) }));
      return Number(out.ContentLength ?? 0);
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  /**
   * A presigned PUT. With `size`, Content-Length is a signed header: the bucket refuses a
   * body of any other length (and a chunked one) as a signature mismatch, 403.
   */
  uploadUrl(key: string, size?: number): Promise<string> {
    const command = new PutObjectCommand({
      Bucket: this.loc.bucket,
      Key: this.objectKey(key),
      ...(size === undefined ? {} : { ContentLength: size }),
    });
    return getSignedUrl(this.client, command, { expiresIn: UPLOAD_TTL_S });
  }

  downloadUrl(key: string, fileName: string, ttlMs: number): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.loc.bucket,
      Key: this.objectKey(key),
      ResponseContentDisposition: `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    });
    const expiresIn = Math.max(1, Math.min(MAX_TTL_S, Math.floor(ttlMs / 1000)));
    return getSignedUrl(this.client, command, { expiresIn });
  }

  close(): Promise<void> {
    this.client.destroy();
    return Promise.resolve();
  }
}
