/**
 * Writes refused for want of space, whatever refused them: SQLite (SQLITE_FULL), PostgreSQL
 * (disk_full, SQLSTATE 53100) or the file system under the blob store or a database file
 * (ENOSPC, EDQUOT). They become one AppError, INSUFFICIENT_STORAGE (507); the store recovers
 * by itself once space returns, and reads are not affected.
 */
import { AppError } from '../errors.js';

const FULL_CODES = new Set(['SQLITE_FULL', '53100', 'ENOSPC', 'EDQUOT']);

/** True when err (or an error it wraps, up to 5 deep) says the storage is full. */
export function isStorageFull(err: unknown): boolean {
  let e = err;
  for (let depth = 0; depth < 5 && typeof e === 'object' && e !== null; depth++) {
    const { code, cause } = e as { code?: unknown; cause?: unknown };
    if (typeof code === 'string' && FULL_CODES.has(code)) return true;
    e = cause;
  }
  return false;
}

/** The INSUFFICIENT_STORAGE error a storage-full error is answered with. */
export const storageFullError = (): AppError =>
  new AppError(
    'INSUFFICIENT_STORAGE',
    'the server’s storage is full, so this write was not stored; reads still work. Retry once space has been freed',
  );

/** err itself, or INSUFFICIENT_STORAGE in its place when it says the storage is full. */
export const orStorageFull = (err: unknown): unknown => (isStorageFull(err) ? storageFullError() : err);
