import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { badRequest, conflict, notFound } from '../errors.js';
import type { BlobStore } from './blob-store.js';
import { diskName } from './disk-name.js';
import type { UrlSigner } from './url-signer.js';

/** Upload links of the local store stay valid this long. */
const UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;

/** The URL path prefixes the server answers signed uploads and downloads on. */
export const UPLOAD_PATH = '/files/upload/';
export const DOWNLOAD_PATH = '/files/download/';

/** A key as URL path segments, each percent-encoded. */
export const keyToUrlPath = (key: string): string => key.split('/').map(encodeURIComponent).join('/');

/**
 * File bytes in a directory. Writes stream to a temporary file, are fsynced, then renamed
 * into place, so a blob is either whole or absent. Keys never resolve outside the root.
 */
export class LocalBlobStore implements BlobStore {
  /** Uploads pass through this server (PUT on the signed link), which marks them itself. */
  readonly directUploads = false;

  constructor(
    private readonly root: string,
    private readonly publicUrl: string,
    private readonly signer: UrlSigner,
  ) {
    fs.mkdirSync(root, { recursive: true });
  }

  /** The file path of a key (long segments hashed: diskName); throws BAD_REQUEST when it would leave the root. */
  private pathOf(key: string): string {
    const parts = key.split('/');
    if (parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\\') || p.includes('\0'))) {
      throw badRequest('file key is not a valid path');
    }
    const full = path.resolve(this.root, ...parts.map(diskName));
    if (!full.startsWith(this.root + path.sep)) throw badRequest('file key is not a valid path');
    return full;
  }

  /** Writes to a temporary file, fsyncs, then renames into place (or, `ifAbsent`, links: never replaces). */
  async put(key: string, body: Readable, options: { ifAbsent?: boolean } = {}): Promise<number> {
    const target = this.pathOf(key);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${randomUUID()}.part`;
    try {
      const out = fs.createWriteStream(temp, { flags: 'wx' });
      await pipeline(body, out);
      const handle = await fs.promises.open(temp, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      const { size } = await fs.promises.stat(temp);
      if (options.ifAbsent) {
        // link() fails when the target exists, atomically, even against another process.
        await fs.promises.link(temp, target).catch((err: NodeJS.ErrnoException) => {
          throw err.code === 'EEXIST' ? conflict('the file already has its bytes; it cannot be replaced') : err;
        });
        await fs.promises.rm(temp, { force: true });
      } else {
        await fs.promises.rename(temp, target);
      }
      return size;
    } catch (err) {
      await fs.promises.rm(temp, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<{ stream: Readable; size: number }> {
    const file = this.pathOf(key);
    const stat = await fs.promises.stat(file).catch(() => undefined);
    if (!stat?.isFile()) throw notFound('file not found');
    return { stream: fs.createReadStream(file), size: stat.size };
  }

  async delete(key: string): Promise<void> {
    await fs.promises.rm(this.pathOf(key), { force: true });
  }

  async stat(key: string): Promise<number | undefined> {
    const stat = await fs.promises.stat(this.pathOf(key)).catch(() => undefined);
    return stat?.isFile() ? stat.size : undefined;
  }

  /** A signed link to this server; the size is enforced there, against the file record. */
  uploadUrl(key: string, _size?: number): Promise<string> {
    const urlPath = UPLOAD_PATH + keyToUrlPath(key);
    return Promise.resolve(
      `${this.publicUrl}${urlPath}?${this.signer.sign('PUT', urlPath, Date.now() + UPLOAD_TTL_MS)}`,
    );
  }

  downloadUrl(key: string, _fileName: string, ttlMs: number): Promise<string> {
    const urlPath = DOWNLOAD_PATH + keyToUrlPath(key);
    return Promise.resolve(`${this.publicUrl}${urlPath}?${this.signer.sign('GET', urlPath, Date.now() + ttlMs)}`);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
