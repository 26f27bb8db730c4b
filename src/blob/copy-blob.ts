import { createHash } from 'node:crypto';
import type { BlobStore } from './blob-store.js';

/** Copies the blob at key from one store to the other (replacing what is there); returns its bytes. */
export async function copyBlob(from: BlobStore, to: BlobStore, key: string): Promise<number> {
  const { stream } = await from.get(key);
  return to.put(key, stream);
}

/** The size and SHA-256 (hex) of the blob at key, streamed; throws NOT_FOUND when missing. */
export async function blobChecksum(store: BlobStore, key: string): Promise<{ size: number; sha256: string }> {
  const { stream } = await store.get(key);
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { size, sha256: hash.digest('hex') };
}
