/**
 * The open tail chunk of recently written series, kept by the process that writes them so an
 * append does not read its tail back, with the last key of the chunk before it (its floor)
 * and the series row as that write left it: points arriving late, between the two chunks,
 * become a chunk of their own without a read, and a batch that only appends to cached
 * series reads nothing at all. An entry is valid only while the series row's `version`
 * equals the one it was cached with (every write stores a new random version), so a
 * rolled-back write, another process's write or a retried transaction is never trusted.
 */
import type { ChunkPoints } from './chunk-codec.js';
import type { ChunkKey } from './chunk-rows.js';
import type { SeriesRow } from '../metrics/series-row.js';

/** A series' cached tail. */
export interface CachedTail {
  tail: ChunkPoints;
  /** The last key of the chunk before the tail; null: none before it; undefined: not known. */
  floor: ChunkKey | null | undefined;
  /** The series row as written with this tail (its summary state and version). */
  row: SeriesRow;
}

/** Series whose tail is kept at most (least recently written dropped first). */
const MAX_ENTRIES = 4096;

const nameKey = (runId: number, logName: string) => `${runId}\n${logName}`;

export class TailCache {
  private readonly entries = new Map<number, CachedTail>();
  /** Series id by run and name (a series keeps its id for good). */
  private readonly ids = new Map<string, number>();

  /**
   * Removes and returns the cached tail of a series when cached for this version, else
   * undefined. Taken, not read: a failed write leaves nothing behind to be mistaken for current.
   */
  take(seriesId: number, version: number): CachedTail | undefined {
    const entry = this.entries.get(seriesId);
    if (entry === undefined) return undefined;
    this.entries.delete(seriesId);
    return Number(entry.row.version) === version ? entry : undefined;
  }

  /** Returns, without taking it, the cached tail of a run's series by name (its row tells the version). */
  peek(runId: number, logName: string): CachedTail | undefined {
    const id = this.ids.get(nameKey(runId, logName));
    return id === undefined ? undefined : this.entries.get(id);
  }

  /** Keeps the tail of a series (and its floor) as of its row's version. */
  put(cached: CachedTail): void {
    const seriesId = Number(cached.row.id);
    this.entries.delete(seriesId);
    this.entries.set(seriesId, { tail: cached.tail, floor: cached.floor, row: cached.row });
    const key = nameKey(Number(cached.row.run_id), cached.row.log_name);
    this.ids.delete(key);
    this.ids.set(key, seriesId);
    if (this.entries.size > MAX_ENTRIES) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    if (this.ids.size > MAX_ENTRIES) {
      const oldest = this.ids.keys().next();
      if (!oldest.done) this.ids.delete(oldest.value);
    }
  }
}

/** Returns a new random series version (53 bits: equal to an old one by chance ~never). */
export function newVersion(): number {
  return Math.floor(Math.random() * Number.MAX_SAFE_INTEGER);
}
