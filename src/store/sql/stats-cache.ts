/**
 * Chunk statistics of series whose summary the writer had to recompute (a re-logged value),
 * kept by the process that writes them, so the next recompute merges them in memory instead
 * of reading every chunk row of the series again. Like TailCache, an entry is valid only
 * while the series row's `version` equals the one it was kept with, and is taken, not read.
 */
import type { ChunkStats } from './chunk-codec.js';
import type { ChunkKey } from './sql-chunk-rows.js';

/** Chunk statistics kept over all series at most (about 250 bytes each). */
const MAX_STATS = 100_000;

/** One chunk's key and statistics. */
export interface KeyedStats {
  key: ChunkKey;
  stats: ChunkStats;
}

/** A series' chunks by `${step}:${tie}` of their key. */
export type SeriesStats = Map<string, KeyedStats>;

/** Returns the map key of a chunk key. */
export const statsId = (k: ChunkKey): string => `${k.step}:${k.tie}`;

/** Returns a series' chunk statistics in ascending key order. */
export function inKeyOrder(chunks: SeriesStats): ChunkStats[] {
  return [...chunks.values()].sort((a, b) => a.key.step - b.key.step || a.key.tie - b.key.tie).map((c) => c.stats);
}

export class StatsCache {
  private readonly entries = new Map<number, { version: number; chunks: SeriesStats }>();
  private total = 0;

  /** Removes and returns a series' statistics when kept for this version, else undefined. */
  take(seriesId: number, version: number): SeriesStats | undefined {
    const entry = this.entries.get(seriesId);
    if (entry === undefined) return undefined;
    this.entries.delete(seriesId);
    this.total -= entry.chunks.size;
    return entry.version === version ? entry.chunks : undefined;
  }

  /** Keeps a series' statistics as of the given version (least recently kept dropped past the bound). */
  put(seriesId: number, version: number, chunks: SeriesStats): void {
    this.take(seriesId, version);
    if (chunks.size > MAX_STATS) return;
    this.entries.set(seriesId, { version, chunks });
    this.total += chunks.size;
    for (const [id, entry] of this.entries) {
      if (this.total <= MAX_STATS) break;
      this.entries.delete(id);
      this.total -= entry.chunks.size;
    }
  }
}
