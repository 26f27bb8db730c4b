import type { Readable } from 'node:stream';

/** File bytes, addressed by key (`<org>/<run>/<logName>/<step>/<fileName>`-like paths). */
export interface BlobStore {
  /**
   * Streams a body into the blob at key and returns the bytes written. Replaces an existing
   * blob, unless `ifAbsent`: then it throws CONFLICT and leaves the existing blob alone.
   * A body that fails (errors or is destroyed) leaves nothing behind.
   */
  put(key: string, body: Readable, options?: { ifAbsent?: boolean }): Promise<number>;
  /** A stream of the blob's bytes with its size; throws NOT_FOUND when missing. */
  get(key: string): Promise<{ stream: Readable; size: number }>;
  /**
   * Where a client uploads the bytes of key with a PUT (no API key needed). With `size`, a
   * store that uploads directly binds the link to exactly that many bytes.
   */
  uploadUrl(key: string, size?: number): Promise<string>;
  /** A download link for key valid for `ttlMs` (no API key needed). */
  downloadUrl(key: string, fileName: string, ttlMs: number): Promise<string>;
  /**
   * True when uploadUrl sends the bytes straight to the storage service, past this server:
   * the server then learns that an upload finished only by asking stat().
   */
  readonly directUploads: boolean;
  /** The size in bytes of the blob at key, or undefined when there is none (yet). */
  stat(key: string): Promise<number | undefined>;
  /** Deletes the blob at key; a missing blob is no error (deleting twice is fine). */
  delete(key: string): Promise<void>;
  /** Releases resources. */
  close(): Promise<void>;
}
