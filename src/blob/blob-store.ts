import type { Readable } from 'node:stream';

/** File bytes, addressed by key (`<org>/<run>/<logName>/<step>/<fileName>`-like paths). */
export interface BlobStore {
  /** Streams a body into the blob at key, replacing it; returns the bytes written. */
  put(key: string, body: Readable): Promise<number>;
  /** A stream of the blob's bytes with its size; throws NOT_FOUND when missing. */
  get(key: string): Promise<{ stream: Readable; size: number }>;
  /** Where a client uploads the bytes of key with a PUT (no API key needed). */
  uploadUrl(key: string): Promise<string>;
  /** A download link for key valid for `ttlMs` (no API key needed). */
  downloadUrl(key: string, fileName: string, ttlMs: number): Promise<string>;
  /**
   * True when uploadUrl sends the bytes straight to the storage service, past this server:
   * the server then learns that an upload finished only by asking stat().
   */
  readonly directUploads: boolean;
  /** The size in bytes of the blob at key, or undefined when there is none (yet). */
  stat(key: string): Promise<number | undefined>;
  /** Releases resources. */
  close(): Promise<void>;
}
