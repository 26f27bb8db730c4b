import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply } from 'fastify';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

/** The Content-Type of a file by its extension; application/octet-stream when unknown. */
export const contentTypeOf = (file: string): string =>
  TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';

/** Errors that mean "no such file here" rather than a server fault. */
const MISSING = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'ELOOP', 'ENAMETOOLONG']);

/**
 * Streams a regular file with its type, length and `cacheControl`; returns false, sending
 * nothing, when there is no regular file at `file` (directories are never listed). The caller
 * must have checked that `file` is inside the directory it serves. Other I/O errors throw.
 */
export async function sendStaticFile(reply: FastifyReply, file: string, cacheControl: string): Promise<boolean> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, 'r');
  } catch (err) {
    if (MISSING.has((err as NodeJS.ErrnoException).code ?? '')) return false;
    throw err;
  }
  const stat = await handle.stat().catch(async (err: unknown) => {
    await handle.close();
    throw err;
  });
  if (!stat.isFile()) {
    await handle.close();
    return false;
  }
  void reply
    .type(contentTypeOf(file))
    .header('content-length', stat.size)
    .header('cache-control', cacheControl)
    .send(handle.createReadStream());
  return true;
}
