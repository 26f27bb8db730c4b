/**
 * Metric ingest into chunks: one transaction per batch, one point per (series, step) with the
 * later time winning — per (series, step, time) in a sys/ series (contract §4, see
 * domain/time-keyed.ts) — exact series summaries updated in the same transaction. An append
 * touches only the series' open tail chunk (cached by the writer, see tail-cache.ts); an
 * earlier key rewrites only the chunk holding it.
 *
 * Several points at one step (sys/): points in a chunk are ordered by (step, tie) and a
 * chunk is keyed by its first point's (step, tie), tie being the time in a series keyed by
 * time and 0 otherwise, so a sys/ series sent all at step 0 still fills chunks of
 * CHUNK_POINTS in time order, appends only to its tail, and is read in step-then-time order.
 */
import type { MetricPointInput } from '../../domain/types.js';
import { logGroupOf } from '../../domain/log-group.js';
import { mergeMoments, momentsOf } from '../../domain/summary.js';
import { compareKeys, keyedByTime, tieOf } from '../../domain/time-keyed.js';
import type { RunRef } from '../series-store.js';
import { chunkStats, type ChunkPoints } from './chunk-codec.js';
import { isPacked, packPoints, type PackedPoints } from '../../domain/packed-points.js';
import { CHUNK_POINTS } from './chunk-size.js';
import { mergeInto, slicePoints, type RawPoint } from './chunk-merge.js';
import {
  CHUNK_STAT_COLUMNS,
  deleteChunks,
  keyAt,
  readHolding,
  readTail,
  rowKey,
  rowPoints,
  rowStats,
  statsParams,
  upsertChunks,
  type ChunkKey,
  type ChunkRow,
} from './sql-chunk-rows.js';
import type { SqlDb, SqlExecutor, SqlValue } from './sql-db.js';
import { chunks, IN_CHUNK } from './sql-util.js';
import { SeriesStats, type StatsCache } from './stats-cache.js';
import {
  rowState,
  SERIES_COLUMNS,
  seriesRows,
  stateUpsertParams,
  UPSERT_SERIES_STATE,
  type SeriesRow,
  type SeriesState,
} from './sql-series-row.js';
import { newVersion, type CachedTail, type TailCache } from './tail-cache.js';

/**
 * Returns the batch per logName as points in ascending key order, one per key (step, or
 * step and time for a series keyed by time): the later time wins, equal times the later line.
 * A series sent in ascending keys (the usual case) is taken as it came, without a map or sort.
 */
function groupBatch(batch: PackedPoints): Map<string, RawPoint[]> {
  const { names, cols } = batch;
  const lists: RawPoint[][] = names.map(() => []);
  for (let k = 0; k < cols.length; k += 4) {
    lists[cols[k]!]!.push({ step: cols[k + 1]!, time: cols[k + 2]!, value: cols[k + 3]! });
  }
  const out = new Map<string, RawPoint[]>();
  for (const [i, name] of names.entries()) {
    const byTime = keyedByTime(name);
    const list = lists[i]!;
    out.set(name, ascending(list, byTime) ? list : dedupe(list, byTime));
  }
  return out;
}

/** True when the points' keys strictly ascend. */
function ascending(list: readonly RawPoint[], byTime: boolean): boolean {
  for (let j = 1; j < list.length; j++) {
    const a = list[j - 1]!;
    const b = list[j]!;
    if (compareKeys(a.step, tieOf(byTime, a.time), b.step, tieOf(byTime, b.time)) >= 0) return false;
  }
  return true;
}

/** Returns one point per key (later time wins, equal times the later one), in ascending key order. */
function dedupe(list: readonly RawPoint[], byTime: boolean): RawPoint[] {
  const keys = new Map<number | string, RawPoint>();
  for (const p of list) {
    const key = byTime ? `${p.step}:${p.time}` : p.step;
    const held = keys.get(key);
    if (held === undefined || p.time >= held.time) keys.set(key, p);
  }
  return [...keys.values()].sort((a, b) => compareKeys(a.step, tieOf(byTime, a.time), b.step, tieOf(byTime, b.time)));
}

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
  states: SqlValue[][];
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

/** A chunk being rewritten: its points and the key it is stored under (null: new). */
interface Touched {
  points: ChunkPoints;
  key: ChunkKey | null;
  incoming: RawPoint[];
}

/** Compares a point's key with a chunk key. */
const comparePoint = (p: RawPoint, byTime: boolean, k: ChunkKey): number =>
  compareKeys(p.step, tieOf(byTime, p.time), k.step, k.tie);

const empty = (): ChunkPoints => ({ steps: [], times: [], values: [] });

/** Finds (reading when needed) the chunk that holds each earlier key and queues the point on it. */
async function placeEarlier(
  tx: SqlExecutor,
  seriesId: number,
  byTime: boolean,
  earlier: readonly RawPoint[],
  touched: Touched[],
): Promise<void> {
  for (const p of earlier) {
    let target = touched.find(
      (t) =>
        t.key !== null &&
        comparePoint(p, byTime, t.key) >= 0 &&
        comparePoint(p, byTime, keyAt(t.points, t.points.steps.length - 1, byTime)) <= 0,
    );
    if (!target) {
      const row = await readHolding(tx, seriesId, p.step, tieOf(byTime, p.time));
      if (!row) throw new Error(`series ${seriesId} has a max step but no chunk`);
      const key = rowKey(row);
      target = touched.find((t) => t.key !== null && t.key.step === key.step && t.key.tie === key.tie);
      if (!target) touched.push((target = { points: rowPoints(row), key, incoming: [] }));
    }
    target.incoming.push(p);
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

/** Plans one series' writes; returns its new tail and floor, or undefined when nothing changed. */
async function writeSeries(
  tx: SqlExecutor,
  run: RunRef,
  row: SeriesRow,
  incoming: readonly RawPoint[],
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
    open = { points: tail, key: keyAt(tail, 0, byTime), incoming: [] };
    touched.push(open);
    maxKey = lastKey(tail, byTime);
  } else floor = null;
  const stored = open;
  const last = maxKey;
  let earlier = last === null ? [] : incoming.filter((p) => comparePoint(p, byTime, last) <= 0);
  const appended = last === null ? incoming : incoming.filter((p) => comparePoint(p, byTime, last) > 0);
  // Late points between the chunk before the tail and the tail (concurrent requests stored
  // out of order) make a chunk of their own: no chunk read back nor rewritten.
  let gap: Touched | undefined;
  if (stored && floor !== undefined && earlier.length > 0) {
    const lo = floor;
    const inGap = (p: RawPoint) =>
      comparePoint(p, byTime, stored.key!) < 0 && (lo === null || comparePoint(p, byTime, lo) > 0);
    const between = earlier.filter(inGap);
    if (between.length > 0) {
      touched.push((gap = { points: empty(), key: null, incoming: between }));
      earlier = earlier.filter((p) => !inGap(p));
    }
  }
  await placeEarlier(tx, seriesId, byTime, earlier, touched);
  if (appended.length > 0) {
    if (!open || sealsTail(open.points.steps.length, appended.length)) {
      open = { points: empty(), key: null, incoming: [] };
      touched.push(open);
    }
    open.incoming = open.incoming.length === 0 ? [...appended] : open.incoming.concat(appended);
  }
  const added: RawPoint[] = [];
  let written = 0;
  let recompute = false;
  let lastTime = -Infinity;
  for (const t of touched) {
    if (t.incoming.length === 0) continue;
    const m = mergeInto(t.points, t.incoming, s.firstTime, byTime);
    for (const p of m.added) added.push(p);
    written += m.written;
    recompute ||= m.recompute;
    lastTime = Math.max(lastTime, m.lastTime);
  }
  // A sys/ point added before the last one may sit at the last finite value's step: recompute.
  if (byTime && added.length > appended.length) recompute = true;
  if (written === 0) {
    if (tail) cache.put(seriesId, Number(row.version), { tail, floor });
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
    if (t.incoming.length === 0 || t.points.steps.length === 0) continue;
    const first = keyAt(t.points, 0, byTime);
    if (t.key !== null && (first.step !== t.key.step || first.tie !== t.key.tie)) {
      w.deletes.push([seriesId, t.key.step, t.key.tie]);
      chunkStatsOf?.delete(t.key);
    }
    const parts = pieces(t, t === open);
    for (const [from, to] of parts) {
      const stats = chunkStats(t.points, from, to);
      w.upserts.push(statsParams(seriesId, t.points, byTime, stats, from, to));
      const key = keyAt(t.points, from, byTime);
      chunkStatsOf?.set(key, stats);
    }
    if (t === open) {
      const [from, to] = parts[parts.length - 1]!;
      newTail = parts.length === 1 ? t.points : slicePoints(t.points, from, to);
      if (parts.length > 1) floor = keyAt(t.points, from - 1, byTime);
    }
  }
  const state = recompute && chunkStatsOf ? chunkStatsOf.summary() : nextState(s, added, lastTime);
  w.states.push(stateUpsertParams(row, run.projectId, state, version));
  if (chunkStatsOf) w.stats.set(seriesId, chunkStatsOf);
  return newTail && { tail: newTail, floor };
}

/** Returns the summary after appending `added` (no stored value changed). */
function nextState(s: SeriesState, added: readonly RawPoint[], lastTime: number): SeriesState {
  const next: SeriesState = { ...s, moments: mergeMoments(s.moments, momentsOf(added.map((p) => p.value))) };
  next.points += added.length;
  if (next.lastTime === null || lastTime > next.lastTime) next.lastTime = lastTime;
  for (const p of added) {
    if (next.firstStep === null || p.step < next.firstStep) next.firstStep = p.step;
    if (next.maxStep === null || p.step > next.maxStep) next.maxStep = p.step;
    if (next.firstTime === null || p.time < next.firstTime) next.firstTime = p.time;
    // >=: added points come in key order, and only a sys/ series adds two at one step.
    if (Number.isFinite(p.value) && (next.lastStep === null || p.step >= next.lastStep)) {
      next.lastStep = p.step;
      next.lastValue = p.value;
    }
  }
  return next;
}

/** The chunk and summary upserts are sent together (PostgreSQL pipelines them, and BEGIN). */
const PIPELINED = { pipelined: true };

/**
 * Stores a batch of points for one run in one transaction and updates the summaries of the
 * touched series: a few statements whatever the batch's size (chunk upserts and series
 * upserts each as one bulk statement). A re-sent batch writes nothing. Throws what the
 * database throws (rolled back; cached tails of the batch are dropped).
 */
export async function appendMetrics(
  db: SqlDb,
  cache: TailCache,
  statsCache: StatsCache,
  run: RunRef,
  points: readonly MetricPointInput[] | PackedPoints,
): Promise<void> {
  const packed = isPacked(points) ? points : packPoints(points);
  if (packed.cols.length === 0) return;
  const batch = groupBatch(packed);
  await db.transaction(async (tx) => {
    const version = newVersion();
    const names = [...batch.keys()].sort();
    const rows = await ensureSeries(tx, db.dialect.forUpdate, run, names);
    const w: Writes = { deletes: [], upserts: [], states: [], stats: new Map() };
    const tails = new Map<number, CachedTail>();
    for (const name of names) {
      const row = rows.get(name);
      if (!row) throw new Error(`series ${name} of run ${run.id} could not be created`);
      const tail = await writeSeries(tx, run, row, batch.get(name)!, cache, statsCache, version, w);
      if (tail) tails.set(Number(row.id), tail);
    }
    await deleteChunks(tx, w.deletes);
    await Promise.all([upsertChunks(tx, w.upserts), w.states.length > 0 && tx.runMany(UPSERT_SERIES_STATE, w.states)]);
    for (const [seriesId, tail] of tails) cache.put(seriesId, version, tail);
    for (const [seriesId, stats] of w.stats) statsCache.put(seriesId, version, stats);
  }, PIPELINED);
}
