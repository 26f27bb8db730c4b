/**
 * Reading a fork's effective series: each lineage link's own points up to its maxStep, an
 * earlier link's point replacing a later one's at the same key (step; step and time in a
 * series keyed by time), merged in key order in pages.
 */
import { compareKeys, tieOf } from '../../../domain/time-keyed.js';
import { lowerBound, type ChunkView } from '../chunks/chunk-codec.js';
import { CHUNK_COLUMNS, overlapping, rowKey, rowPoints, type ChunkDataRow } from '../chunks/chunk-rows.js';
import type { SqlExecutor } from '../db.js';
import { CHUNK_POINTS } from '../chunks/chunk-size.js';
import { encodeValue, type StoredPoint } from './series-row.js';

/** Points are read (and merged points handed on) in pages of at most this many. */
export const PAGE_SIZE = 20_000;

/**
 * One series of a lineage: its id, the highest own step visible through the lineage, and
 * whether its points are keyed by (step, time) (domain/time-keyed.ts).
 */
export interface PointSource {
  seriesId: number;
  maxStep: number;
  byTime: boolean;
}

/** Chunks read by one query of seriesPages (about PAGE_SIZE points). */
const PAGE_CHUNKS = Math.ceil(PAGE_SIZE / CHUNK_POINTS);

/** Returns the stored points of a chunk with step in [stepMin, stepMax], ascending. */
export function chunkPoints(c: ChunkView, stepMin: number, stepMax: number): StoredPoint[] {
  const out: StoredPoint[] = [];
  for (let i = lowerBound(c.steps, stepMin); i < c.steps.length && c.steps[i]! <= stepMax; i++) {
    out.push({ step: c.steps[i]!, time: c.times[i]!, ...encodeValue(c.values[i]!) });
  }
  return out;
}

/** Yields one series' own points with stepMin <= step <= stepMax, in key order, in pages. */
export async function* seriesPages(
  db: SqlExecutor,
  seriesId: number,
  stepMin: number,
  stepMax: number,
): AsyncGenerator<StoredPoint[]> {
  if (stepMin > stepMax) return;
  let range = overlapping(seriesId, stepMin, stepMax);
  for (;;) {
    const rows = await db.all<ChunkDataRow>(
      `SELECT ${CHUNK_COLUMNS} FROM metric_chunks WHERE ${range.where} ORDER BY first_step, first_tie LIMIT ?`,
      [...range.params, PAGE_CHUNKS],
    );
    const page = rows.flatMap((r) => chunkPoints(rowPoints(r), stepMin, stepMax));
    if (page.length > 0) yield page;
    const last = rows[rows.length - 1];
    if (last === undefined || rows.length < PAGE_CHUNKS) return;
    range = overlapping(seriesId, stepMin, stepMax, rowKey(last));
  }
}

/** A read position in one source's pages. */
class Cursor {
  private page: StoredPoint[] = [];
  private i = 0;
  private done = false;
  constructor(private readonly pages: AsyncGenerator<StoredPoint[]>) {}

  /** True when the next point is buffered or the source is exhausted. */
  ready(): boolean {
    return this.done || this.i < this.page.length;
  }
  async load(): Promise<void> {
    while (!this.ready()) {
      const next = await this.pages.next();
      if (next.done) this.done = true;
      else {
        this.page = next.value;
        this.i = 0;
      }
    }
  }
  peek(): StoredPoint | undefined {
    return this.page[this.i];
  }
  /** Moves past the next point when it has this key. */
  skip(step: number, tie: number, byTime: boolean): void {
    const head = this.page[this.i];
    if (head !== undefined && head.step === step && tieOf(byTime, head.time) === tie) this.i++;
  }
}

/**
 * Yields the effective points in [stepMin, stepMax] of the sources (lineage order, earliest
 * wins a shared key), in key order, in pages of at most PAGE_SIZE. Memory: O(pages).
 */
export async function* effectivePages(
  db: SqlExecutor,
  sources: readonly PointSource[],
  stepMin: number,
  stepMax: number,
): AsyncGenerator<StoredPoint[]> {
  const live = sources.filter((s) => s.maxStep >= stepMin && stepMin <= stepMax);
  const only = live[0];
  if (only !== undefined && live.length === 1) {
    yield* seriesPages(db, only.seriesId, stepMin, Math.min(stepMax, only.maxStep));
    return;
  }
  const byTime = only?.byTime ?? false;
  const cursors = live.map((s) => new Cursor(seriesPages(db, s.seriesId, stepMin, Math.min(stepMax, s.maxStep))));
  let out: StoredPoint[] = [];
  for (;;) {
    for (const c of cursors) if (!c.ready()) await c.load();
    let best: StoredPoint | undefined;
    for (const c of cursors) {
      const head = c.peek();
      if (head === undefined) continue;
      if (
        best === undefined ||
        compareKeys(head.step, tieOf(byTime, head.time), best.step, tieOf(byTime, best.time)) < 0
      ) {
        best = head;
      }
    }
    if (best === undefined) break;
    out.push(best);
    const tie = tieOf(byTime, best.time);
    for (const c of cursors) c.skip(best.step, tie, byTime);
    if (out.length >= PAGE_SIZE) {
      yield out;
      out = [];
    }
  }
  if (out.length > 0) yield out;
}

/** Returns every effective point in [stepMin, stepMax] of the sources, in key order. */
export async function collectPoints(
  db: SqlExecutor,
  sources: readonly PointSource[],
  stepMin: number,
  stepMax: number,
): Promise<StoredPoint[]> {
  const pages: StoredPoint[][] = [];
  for await (const page of effectivePages(db, sources, stepMin, stepMax)) pages.push(page);
  return pages.length === 1 ? (pages[0] ?? []) : pages.flat();
}
