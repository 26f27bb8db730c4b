/**
 * Chunk statistics of series whose summary the writer had to recompute (a re-logged value),
 * kept by the process that writes them, so the next recompute does not read every chunk row
 * of the series again. Like TailCache, an entry is valid only while the series row's
 * `version` equals the one it was kept with, and is taken, not read.
 */
import type { ChunkStats } from './chunk-codec.js';
import type { ChunkKey } from './chunk-rows.js';
import { mergeStates, stateOfChunks } from '../metrics/metric-recompute.js';
import { emptyState, type SeriesState } from '../metrics/series-row.js';

/** Chunk statistics kept over all series at most (about 250 bytes each). */
const MAX_STATS = 100_000;

const compareKeys = (a: ChunkKey, b: ChunkKey): number => a.step - b.step || a.tie - b.tie;

/**
 * A series' chunk statistics in key order, with the summary of all of them kept in a
 * segment tree: changing one chunk, or adding one after the last, re-merges the chunks'
 * ancestors (about log2 n merges) instead of all n chunks. Inserting or deleting a chunk
 * elsewhere rebuilds the tree at the next summary.
 */
export class SeriesStats {
  private readonly keys: ChunkKey[] = [];
  private readonly stats: ChunkStats[] = [];
  /** Node i merges nodes 2i and 2i+1; leaves start at `width`. Null: to be rebuilt. */
  private tree: SeriesState[] | null = null;
  private width = 0;

  get size(): number {
    return this.keys.length;
  }

  /** Sets the statistics of the chunk stored under `key`. */
  set(key: ChunkKey, stats: ChunkStats): void {
    const at = this.indexOf(key);
    if (at < this.keys.length && compareKeys(this.keys[at]!, key) === 0) {
      this.stats[at] = stats;
    } else {
      this.keys.splice(at, 0, key);
      this.stats.splice(at, 0, stats);
      if (at !== this.keys.length - 1 || at >= this.width) this.tree = null;
    }
    if (this.tree) this.update(at);
  }

  /** Forgets the chunk stored under `key` (no-op when there is none). */
  delete(key: ChunkKey): void {
    const at = this.indexOf(key);
    if (at >= this.keys.length || compareKeys(this.keys[at]!, key) !== 0) return;
    this.keys.splice(at, 1);
    this.stats.splice(at, 1);
    this.tree = null;
  }

  /** The summary of every chunk, as stateOfChunks gives it over them in key order. */
  summary(): SeriesState {
    const tree = this.tree ?? this.build();
    return { ...tree[1]!, moments: { ...tree[1]!.moments } };
  }

  /** The first index whose key is not below `key`. */
  private indexOf(key: ChunkKey): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareKeys(this.keys[mid]!, key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private build(): SeriesState[] {
    let width = 1;
    while (width < Math.max(1, this.stats.length) * 2) width *= 2;
    const tree: SeriesState[] = new Array<SeriesState>(2 * width);
    for (let i = 0; i < width; i++) tree[width + i] = this.leaf(i);
    for (let i = width - 1; i >= 1; i--) tree[i] = mergeStates(tree[2 * i]!, tree[2 * i + 1]!);
    this.width = width;
    this.tree = tree;
    return tree;
  }

  private leaf(i: number): SeriesState {
    const stats = this.stats[i];
    return stats ? stateOfChunks([stats]) : emptyState();
  }

  private update(at: number): void {
    const tree = this.tree!;
    let node = this.width + at;
    tree[node] = this.leaf(at);
    for (node >>= 1; node >= 1; node >>= 1) tree[node] = mergeStates(tree[2 * node]!, tree[2 * node + 1]!);
  }
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
