/**
 * The bytes of a signed upload link, when they pass through this server (the local blob
 * store): exactly the declared `fileSize`, once. More bytes are refused as they arrive, fewer
 * when the body ends; either way nothing is stored. A finished file cannot be replaced.
 */
import type { Readable } from 'node:stream';
import { Transform, type TransformCallback } from 'node:stream';
import { AppError, badRequest, conflict, notFound } from '../errors.js';
import type { Deps } from './context.js';

const tooLarge = (size: number): AppError =>
  new AppError('PAYLOAD_TOO_LARGE', `the upload is larger than the declared fileSize of ${size} bytes`);
const tooSmall = (size: number, got: number): AppError =>
  badRequest(`the upload has ${got} bytes; its declared fileSize is ${size} bytes`);

/** Passes exactly `size` bytes through; fails with 413 on the first byte over, 400 when the body ends short. */
class ExactSize extends Transform {
  private seen = 0;

  constructor(private readonly size: number) {
    super();
    // Bytes may flow in before the blob store starts reading; it finds the error on the stream.
    this.on('error', () => {});
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.size) return callback(tooLarge(this.size));
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    callback(this.seen === this.size ? null : tooSmall(this.size, this.seen));
  }
}

/** Blob keys with an upload in progress in this process (a second PUT at once is refused). */
const receiving = new Set<string>();

/**
 * Receives the bytes of an (already verified) upload link and marks the file uploaded;
 * returns the size. Calls `admit(tenant)` (which may throw OVERLOADED) before reading the
 * body. Throws NOT_FOUND for a link whose file record is gone, CONFLICT when the file already
 * has its bytes or is being uploaded, PAYLOAD_TOO_LARGE / BAD_REQUEST when `declaredLength`
 * (Content-Length) or the body differs from the declared fileSize.
 */
export async function receiveUpload(
  deps: Deps,
  blobKey: string,
  body: Readable,
  declaredLength: number | undefined,
  admit: (tenant: string) => void,
): Promise<number> {
  const record = await deps.series.findFile(blobKey);
  if (!record) throw notFound('this upload link names no file awaiting bytes; request a new link');
  if (record.uploadedAt !== null)
    throw conflict('this file already has its bytes; a finished upload cannot be replaced');
  if (declaredLength !== undefined && declaredLength > record.fileSize) throw tooLarge(record.fileSize);
  if (declaredLength !== undefined && declaredLength < record.fileSize) {
    throw tooSmall(record.fileSize, declaredLength);
  }
  if (receiving.has(blobKey)) throw conflict('an upload to this link is already in progress');
  admit(blobKey.split('/')[0] ?? '');
  receiving.add(blobKey);
  try {
    const exact = new ExactSize(record.fileSize);
    body.on('error', (err) => exact.destroy(err));
    const size = await deps.blobs.put(blobKey, body.pipe(exact), { ifAbsent: true }).catch(async (err: unknown) => {
      // Bytes stored by an attempt that stopped before marking the record: adopt them if whole.
      if (err instanceof AppError && err.code === 'CONFLICT' && (await deps.blobs.stat(blobKey)) === record.fileSize) {
        await deps.series.markFileUploaded(blobKey, record.fileSize, Date.now());
      }
      throw err;
    });
    if (!(await deps.series.markFileUploaded(blobKey, size, Date.now()))) {
      throw conflict('this file already has its bytes; a finished upload cannot be replaced');
    }
    return size;
  } finally {
    receiving.delete(blobKey);
  }
}
