/**
 * The open tail chunk of recently written series, kept by the process that writes them so an
 * append does not read its tail back, with the last key of the chunk before it (its floor):
 * points arriving late, between the two, become a chunk of their own without a read. An entry
 * is valid only while the series row's `version` equals the one it was cached with (every
 * write stores a new random version), so a rolled-back write, another process's write or a
 * retried transaction is never trusted.
 */
import type { ChunkPoints } from './chunk-codec.js';
import type { ChunkKey } from './sql-chunk-rows.js';

/** A series' cached tail. */
export interface CachedTail {
  tail: ChunkPoints;
  /** The last key of the chunk before the tail; null: none before it; undefined: not known. */
  floor: ChunkKey | null | undefined;
}

/** Series whose tail is kept at most (least recently written dropped first). */
const MAX_ENTRIES = 4096;

interface Entry extends CachedTail {
  version: number;
}

export class TailCache {
  private readonly entries = new Map<number, Entry>();

  /**
   * Removes and returns the cached tail of a series when cached for this version, else
   * undefined. Taken, not read: a failed write leaves nothing behind to be mistaken for current.
   */
  take(seriesId: number, version: number): CachedTail | undefined {
    const entry = this.entries.get(seriesId);
    if (entry === undefined) return undefined;
    this.entries.delete(seriesId);
    return entry.version === version ? entry : undefined;
  }

  /** Keeps the tail of a series (and its floor) as of the given version. */
  put(seriesId: number, version: number, cached: CachedTail): void {
    this.entries.delete(seriesId);
    this.entries.set(seriesId, { version, tail: cached.tail, floor: cached.floor });
    if (this.entries.size > MAX_ENTRIES) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }
}

/** Returns a new random series version (53 bits: equal to an old one by chance ~never). */
export function newVersion(): number {
  return Math.floor(Math.random() * Number.MAX_SAFE_INTEGER);
}
