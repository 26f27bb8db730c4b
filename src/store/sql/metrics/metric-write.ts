/**
 * Metric ingest into chunks: one transaction per batch, one point per (series, step) with the
 * later time winning — per (series, step, time) in a sys/ series (docs/api.md §4.2, see
 * domain/time-keyed.ts) — exact series summaries updated in the same transaction. An append
 * touches only the series' open tail chunk (cached by the writer, see chunks/tail-cache.ts); an
 * earlier key rewrites only the chunk holding it. A batch that only appends to series this
 * process wrote last reads nothing: their rows and tails are cached, and the batch is written
 * by one SqlDb.commitStatements (one round trip on PostgreSQL) that fails inside the database
 * if another process wrote one of them since (appendCached).
 *
 * Several points at one step (sys/): points in a chunk are ordered by (step, tie) and a
 * chunk is keyed by its first point's (step, tie), tie being the time in a series keyed by
 * time and 0 otherwise, so a sys/ series sent all at step 0 still fills chunks of
 * CHUNK_POINTS in time order, appends only to its tail, and is read in step-then-time order.
 */
import type { MetricPointInput } from '../../../domain/types.js';
import { logGroupOf } from '../../../domain/log-group.js';
import { mergeMoments, momentsOfRange } from '../../../domain/summary.js';
import { compareKeys, keyedByTime, tieOf } from '../../../domain/time-keyed.js';
import { batchColumns } from './batch-columns.js';
import type { RunRef } from '../../series-store.js';
import { chunkStats, type ChunkPoints, type ChunkStats } from '../chunks/chunk-codec.js';
import { toPacked, type PackedPoints } from '../../../domain/packed-points.js';
import { CHUNK_POINTS } from '../chunks/chunk-size.js';
import { mergeInto, slicePoints, type PointColumns } from '../chunks/chunk-merge.js';
import {
  bodyParams,
  CHUNK_STAT_COLUMNS,
  deleteChunks,
  keyAt,
  readHolding,
  readTail,
  rowKey,
  rowPoints,
  rowStats,
  sameExtremes,
  statsParams,
  updateChunkBodies,
  upsertChunks,
  UPSERT_CHUNK,
  type ChunkKey,
  type ChunkRow,
} from '../chunks/chunk-rows.js';
import type { SqlDb, SqlExecutor } from '../db.js';
import type { SqlValue } from '../sql-value.js';
import { chunks, IN_CHUNK } from '../util.js';
import { SeriesStats, type StatsCache } from '../chunks/stats-cache.js';
import {
  rowState,
  SERIES_COLUMNS,
  seriesRows,
  stateUpdates,
  withState,
  type SeriesRow,
  type SeriesState,
  type StateWrite,
} from './series-row.js';
import { newVersion, type CachedTail, type TailCache } from '../chunks/tail-cache.js';

/** Returns the run's series rows of these names, created when missing, locked for the transaction. */
async function ensureSeries(
  tx: SqlExecutor,
  forUpdate: string,
  run: RunRef,
  names: readonly string[],
): Promise<Map<string, SeriesRow>> {
  const found = new Map<string, SeriesRow>();
  const select = async (list: readonly string[]): Promise<void> => {
    for (const part of chunks(list, IN_CHUNK)) {
      const marks = part.map(() => '?').join(', ');
      const rows = await seriesRows(
        tx,
        `SELECT ${SERIES_COLUMNS} FROM series WHERE run_id = ? AND log_name IN (${marks}) ORDER BY id ${forUpdate}`,
        [run.id, ...part],
      );
      for (const row of rows) found.set(row.log_name, row);
    }
  };
  await select(names);
  const missing = names.filter((n) => !found.has(n));
  if (missing.length === 0) return found;
  await tx.runMany(
    'INSERT INTO series (run_id, project_id, log_name, log_group) VALUES (?, ?, ?, ?) ON CONFLICT (run_id, log_name) DO NOTHING',
    missing.map((n) => [run.id, run.projectId, n, logGroupOf(n)]),
  );
  await select(missing);
  return found;
}

/** The statements one batch needs, gathered over its series. */
interface Writes {
  deletes: SqlValue[][];
  upserts: SqlValue[][];
  /** Stored chunks rewritten with the same key and extremes (bodyParams rows). */
  bodies: SqlValue[][];
  states: StateWrite[];
  /** Chunk statistics of recomputed series as of this write, to keep in the StatsCache. */
  stats: Map<number, SeriesStats>;
}

/** Returns every chunk's statistics of a series as stored (before this write's statements). */
async function readSeriesStats(tx: SqlExecutor, seriesId: number): Promise<SeriesStats> {
  const rows = await tx.all<ChunkRow>(`SELECT ${CHUNK_STAT_COLUMNS} FROM metric_chunks WHERE series_id = ?`, [
    seriesId,
  ]);
  const out = new SeriesStats();
  for (const r of rows) out.set(rowKey(r), rowStats(r));
  return out;
}

/** A chunk being rewritten: its points, the key it is stored under (null: new), the incoming points (indexes) it takes. */
interface Touched {
  points: ChunkPoints;
  key: ChunkKey | null;
  picks: number[];
  /** The statistics stored with it, when it was read from the database. */
  stored?: ChunkStats;
}

/** Compares the key of incoming point j with a chunk key. */
const comparePoint = (src: PointColumns, j: number, byTime: boolean, k: ChunkKey): number =>
  compareKeys(src.steps[j]!, tieOf(byTime, src.times[j]!), k.step, k.tie);

/** Returns the first index in [from, to) whose point's key is above k (to when none); keys ascend. */
function firstAbove(src: PointColumns, byTime: boolean, k: ChunkKey, from: number, to: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (comparePoint(src, mid, byTime, k) > 0) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Returns the indexes [from, to). */
function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = from; i < to; i++) out.push(i);
  return out;
}

const empty = (): ChunkPoints => ({ steps: [], times: [], values: [] });

/** Finds (reading when needed) the chunk that holds each earlier point and queues the point on it. */
async function placeEarlier(
  tx: SqlExecutor,
  seriesId: number,
  byTime: boolean,
  src: PointColumns,
  earlier: readonly number[],
  touched: Touched[],
): Promise<void> {
  for (const j of earlier) {
    let target = touched.find(
      (t) =>
        t.key !== null &&
        comparePoint(src, j, byTime, t.key) >= 0 &&
        comparePoint(src, j, byTime, keyAt(t.points, t.points.steps.length - 1, byTime)) <= 0,
    );
    if (!target) {
      const row = await readHolding(tx, seriesId, src.steps[j]!, tieOf(byTime, src.times[j]!));
      if (!row) throw new Error(`series ${seriesId} has a max step but no chunk`);
      const key = rowKey(row);
      target = touched.find((t) => t.key !== null && t.key.step === key.step && t.key.tie === key.tie);
      if (!target) touched.push((target = { points: rowPoints(row), key, picks: [], stored: rowStats(row) }));
    }
    target.picks.push(j);
  }
}

/**
 * True when appended points start a chunk of their own instead of joining the tail: the
 * tail is full, or at least half full and would overflow. A tail is then left as it is
 * (sealed short) instead of rewritten to take a few more points: an append batch of a busy
 * series only inserts chunks, where it rewrote the tail each time (on PostgreSQL, an updated
 * row is a new row version and new index entries); a series logged a few points at a time
 * still fills its tail.
 */
const sealsTail = (held: number, adding: number): boolean =>
  held >= CHUNK_POINTS || (held >= CHUNK_POINTS / 2 && held + adding > CHUNK_POINTS);

/** Splits a rewritten chunk for storage: the tail into pieces of CHUNK_POINTS, others past 2×. */
function pieces(t: Touched, isTail: boolean): [number, number][] {
  const n = t.points.steps.length;
  if (!isTail && n <= 2 * CHUNK_POINTS) return [[0, n]];
  const out: [number, number][] = [];
  for (let from = 0; from < n; from += CHUNK_POINTS) out.push([from, Math.min(n, from + CHUNK_POINTS)]);
  return out;
}

/** The last key of a chunk's points. */
const lastKey = (c: ChunkPoints, byTime: boolean): ChunkKey => keyAt(c, c.steps.length - 1, byTime);

/** Plans one series' writes; returns its new tail, floor and row, or undefined when nothing changed. */
async function writeSeries(
  tx: SqlExecutor,
  row: SeriesRow,
  incoming: PointColumns,
  cache: TailCache,
  statsCache: StatsCache,
  version: number,
  w: Writes,
): Promise<CachedTail | undefined> {
  const seriesId = Number(row.id);
  const byTime = keyedByTime(row.log_name);
  const s = rowState(row);
  const cached = cache.take(seriesId, Number(row.version));
  let tail = cached?.tail;
  let floor = cached?.floor;
  if (!tail && s.maxStep !== null) {
    const stored = await readTail(tx, seriesId);
    tail = stored && rowPoints(stored);
  }
  const touched: Touched[] = [];
  let open: Touched | undefined;
  let maxKey: ChunkKey | null = null;
  if (tail && tail.steps.length > 0) {
    open = { points: tail, key: keyAt(tail, 0, byTime), picks: [] };
    touched.push(open);
    maxKey = lastKey(tail, byTime);
  } else floor = null;
  const stored = open;
  const n = incoming.steps.length;
  // Keys ascend: points up to the tail's last key are earlier, the rest are appended.
  const split = maxKey === null ? 0 : firstAbove(incoming, byTime, maxKey, 0, n);
  let earlier = range(0, split);
  // Late points between the chunk before the tail and the tail (concurrent requests stored
  // out of order) make a chunk of their own: no chunk read back nor rewritten.
  let gap: Touched | undefined;
  if (stored && floor !== undefined && split > 0) {
    // The gap's points end before the first at or above the tail's first key (keys are unique).
    const above = firstAbove(incoming, byTime, stored.key!, 0, split);
    const end = above > 0 && comparePoint(incoming, above - 1, byTime, stored.key!) === 0 ? above - 1 : above;
    const start = floor === null ? 0 : firstAbove(incoming, byTime, floor, 0, end);
    if (start < end) {
      touched.push((gap = { points: empty(), key: null, picks: range(start, end) }));
      earlier = earlier.filter((j) => j < start || j >= end);
    }
  }
  await placeEarlier(tx, seriesId, byTime, incoming, earlier, touched);
  if (split < n) {
    if (!open || sealsTail(open.points.steps.length, n - split)) {
      open = { points: empty(), key: null, picks: [] };
      touched.push(open);
    }
    for (let j = split; j < n; j++) open.picks.push(j);
  }
  const added: number[] = [];
  let written = 0;
  let recompute = false;
  let lastTime = -Infinity;
  for (const t of touched) {
    if (t.picks.length === 0) continue;
    const m = mergeInto(t.points, incoming, t.picks, s.firstTime, byTime);
    for (const j of m.added) added.push(j);
    written += m.written;
    recompute ||= m.recompute;
    lastTime = Math.max(lastTime, m.lastTime);
  }
  // A sys/ point added before the last one may sit at the last finite value's step: recompute.
  if (byTime && added.length > n - split) recompute = true;
  if (written === 0) {
    if (tail) cache.put({ tail, floor, row });
    return undefined;
  }
  // A recompute merges every chunk's statistics: kept by the writer (StatsCache) once read.
  let chunkStatsOf = statsCache.take(seriesId, Number(row.version));
  if (recompute && !chunkStatsOf) chunkStatsOf = await readSeriesStats(tx, seriesId);
  let newTail = tail;
  // The floor of the new tail: the chunk before it is the gap chunk, the old tail (when the
  // appended points started a chunk), or the tail's own previous piece.
  if (gap) floor = lastKey(gap.points, byTime);
  if (open !== stored && stored) floor = lastKey(stored.points, byTime);
  for (const t of touched) {
    if (t.picks.length === 0 || t.points.steps.length === 0) continue;
    const first = keyAt(t.points, 0, byTime);
    const moved = t.key !== null && (first.step !== t.key.step || first.tie !== t.key.tie);
    if (moved) {
      w.deletes.push([seriesId, t.key!.step, t.key!.tie]);
      chunkStatsOf?.delete(t.key!);
    }
    const parts = pieces(t, t === open);
    for (const [from, to] of parts) {
      const stats = chunkStats(t.points, from, to);
      if (parts.length === 1 && t.stored !== undefined && !moved && sameExtremes(t.stored, stats)) {
        w.bodies.push(bodyParams(seriesId, t.points, byTime, stats, from, to));
      } else w.upserts.push(statsParams(seriesId, t.points, byTime, stats, from, to));
      const key = keyAt(t.points, from, byTime);
      chunkStatsOf?.set(key, stats);
    }
    if (t === open) {
      const [from, to] = parts[parts.length - 1]!;
      newTail = parts.length === 1 ? t.points : slicePoints(t.points, from, to);
      if (parts.length > 1) floor = keyAt(t.points, from - 1, byTime);
    }
  }
  const state = recompute && chunkStatsOf ? chunkStatsOf.summary() : nextState(s, incoming, added, lastTime);
  w.states.push({ id: seriesId, from: Number(row.version), version, state });
  if (chunkStatsOf) w.stats.set(seriesId, chunkStatsOf);
  return newTail && { tail: newTail, floor, row: withState(row, state, version) };
}

/** Returns the summary after appending the incoming points at `added` (no stored value changed). */
function nextState(s: SeriesState, src: PointColumns, added: readonly number[], lastTime: number): SeriesState {
  const values = new Float64Array(added.length);
  let { firstStep, maxStep, firstTime, lastStep, lastValue } = s;
  for (let i = 0; i < added.length; i++) {
    const j = added[i]!;
    const step = src.steps[j]!;
    const time = src.times[j]!;
    const value = src.values[j]!;
    values[i] = value;
    if (firstStep === null || step < firstStep) firstStep = step;
    if (maxStep === null || step > maxStep) maxStep = step;
    if (firstTime === null || time < firstTime) firstTime = time;
    // >=: a sys/ series adds points at one step in time order.
    if (Number.isFinite(value) && (lastStep === null || step >= lastStep)) {
      lastStep = step;
      lastValue = value;
    }
  }
  return {
    ...s,
    moments: mergeMoments(s.moments, momentsOfRange(values, 0, values.length)),
    points: s.points + added.length,
    lastTime: s.lastTime === null || lastTime > s.lastTime ? lastTime : s.lastTime,
    firstStep,
    maxStep,
    firstTime,
    lastStep,
    lastValue,
  };
}

/** The chunk and summary upserts are sent together (PostgreSQL pipelines them, and BEGIN). */
const PIPELINED = { pipelined: true };

const newWrites = (): Writes => ({ deletes: [], upserts: [], bodies: [], states: [], stats: new Map() });

/** Keeps what a committed write left: the series' tails and rows, and recomputed chunk statistics. */
function keep(
  cache: TailCache,
  statsCache: StatsCache,
  tails: readonly CachedTail[],
  w: Writes,
  version: number,
): void {
  for (const tail of tails) cache.put(tail);
  for (const [seriesId, stats] of w.stats) statsCache.put(seriesId, version, stats);
}

const refuse = (): Promise<never> => Promise.reject(new Error('planning an append to cached series sent a query'));

/** Planning a batch of appends to cached series sends no query (see appendCached): any is a bug. */
const NO_QUERIES: SqlExecutor = {
  all: refuse,
  allArrays: refuse,
  column: refuse,
  get: refuse,
  run: refuse,
  runMany: refuse,
};

/**
 * Stores a batch that only appends, after their tails, to series whose rows and tails this
 * process cached when it last wrote them: planned without a read, and written by one
 * commitStatements (on PostgreSQL, one round trip instead of three) whose state update
 * fails inside the database when a series' version moved, i.e. another process wrote it.
 * Returns false, having stored nothing, when the batch does not qualify or that write fails;
 * the caller then stores it the way that reads and locks (tails taken here are read back).
 */
async function appendCached(
  db: SqlDb,
  cache: TailCache,
  statsCache: StatsCache,
  run: RunRef,
  batch: ReadonlyMap<string, PointColumns>,
  names: readonly string[],
): Promise<boolean> {
  const rows: SeriesRow[] = [];
  for (const name of names) {
    const cached = cache.peek(run.id, name);
    if (!cached || cached.tail.steps.length === 0) return false;
    const byTime = keyedByTime(name);
    if (comparePoint(batch.get(name)!, 0, byTime, lastKey(cached.tail, byTime)) <= 0) return false;
    rows.push(cached.row);
  }
  const version = newVersion();
  const w = newWrites();
  const tails: CachedTail[] = [];
  for (const row of rows) {
    const tail = await writeSeries(NO_QUERIES, row, batch.get(row.log_name)!, cache, statsCache, version, w);
    if (tail) tails.push(tail);
  }
  if (w.deletes.length > 0 || w.bodies.length > 0) throw new Error('an append to cached tails rewrote a stored chunk');
  try {
    await db.commitStatements([...stateUpdates(w.states), { sql: UPSERT_CHUNK, rows: w.upserts }]);
  } catch {
    return false;
  }
  keep(cache, statsCache, tails, w, version);
  return true;
}

/**
 * Stores a batch of points for one run in one transaction and updates the summaries of the
 * touched series: a few statements whatever the batch's size (chunk upserts and series
 * updates each as one bulk statement). A re-sent batch writes nothing. Throws what the
 * database throws (rolled back; cached tails of the batch are dropped).
 */
export async function appendMetrics(
  db: SqlDb,
  cache: TailCache,
  statsCache: StatsCache,
  run: RunRef,
  points: readonly MetricPointInput[] | PackedPoints,
): Promise<void> {
  const packed = toPacked(points);
  if (packed.cols.length === 0) return;
  const batch = batchColumns(packed);
  const names = [...batch.keys()].sort();
  if (await appendCached(db, cache, statsCache, run, batch, names)) return;
  await db.transaction(async (tx) => {
    const version = newVersion();
    const rows = await ensureSeries(tx, db.dialect.forUpdate, run, names);
    const w = newWrites();
    const tails: CachedTail[] = [];
    for (const name of names) {
      const row = rows.get(name);
      if (!row) throw new Error(`series ${name} of run ${run.id} could not be created`);
      const tail = await writeSeries(tx, row, batch.get(name)!, cache, statsCache, version, w);
      if (tail) tails.push(tail);
    }
    await deleteChunks(tx, w.deletes);
    await Promise.all([
      upsertChunks(tx, w.upserts),
      updateChunkBodies(tx, w.bodies),
      ...stateUpdates(w.states).map((s) => tx.runMany(s.sql, s.rows)),
    ]);
    keep(cache, statsCache, tails, w, version);
  }, PIPELINED);
}
