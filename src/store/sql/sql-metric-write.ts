/**
 * Metric ingest into chunks: one transaction per batch, one point per (series, step) with the
 * later time winning, exact series summaries updated in the same transaction. An append
 * touches only the series' open tail chunk (cached by the writer, see tail-cache.ts); an
 * earlier step rewrites only the chunk holding it.
 */
import { logGroupOf } from '../../domain/log-group.js';
import { mergeMoments, momentsOf } from '../../domain/summary.js';
import type { MetricPointInput, RunRef } from '../series-store.js';
import type { ChunkPoints } from './chunk-codec.js';
import { CHUNK_POINTS } from './chunk-size.js';
import { mergeInto, slicePoints, type RawPoint } from './chunk-merge.js';
import { chunkParams, deleteChunks, readHolding, readTail, rowPoints, upsertChunks } from './sql-chunk-rows.js';
import type { SqlDb, SqlExecutor, SqlValue } from './sql-db.js';
import { chunks, IN_CHUNK } from './sql-lineage-series.js';
import { recomputeState } from './sql-metric-recompute.js';
import {
  rowState,
  SERIES_COLUMNS,
  stateUpsertParams,
  UPSERT_SERIES_STATE,
  type SeriesRow,
  type SeriesState,
} from './sql-series-row.js';
import { newVersion, type TailCache } from './tail-cache.js';

/** Returns the batch per logName as ascending points, one per step (later time; equal: later line). */
function groupBatch(points: readonly MetricPointInput[]): Map<string, RawPoint[]> {
  const byName = new Map<string, Map<number, RawPoint>>();
  for (const p of points) {
    let steps = byName.get(p.logName);
    if (!steps) byName.set(p.logName, (steps = new Map()));
    const held = steps.get(p.step);
    if (held === undefined || p.time >= held.time) steps.set(p.step, { step: p.step, time: p.time, value: p.value });
  }
  return new Map([...byName].map(([name, steps]) => [name, [...steps.values()].sort((a, b) => a.step - b.step)]));
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
      const rows = await tx.all<SeriesRow>(
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
    'INSERT INTO series (run_id, project_id, log_name, log_group, rollup_level) VALUES (?, ?, ?, ?, 0) ON CONFLICT (run_id, log_name) DO NOTHING',
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
  recompute: { row: SeriesRow }[];
}

/** A chunk being rewritten: its points and the first step it is stored under (null: new). */
interface Touched {
  points: ChunkPoints;
  key: number | null;
  incoming: RawPoint[];
}

const empty = (): ChunkPoints => ({ steps: [], times: [], values: [] });

/** Finds (reading when needed) the chunk that holds each earlier step and queues the point on it. */
async function placeEarlier(
  tx: SqlExecutor,
  seriesId: number,
  earlier: readonly RawPoint[],
  touched: Touched[],
): Promise<void> {
  for (const p of earlier) {
    let target = touched.find((t) => t.key !== null && t.key <= p.step && p.step <= t.points.steps.at(-1)!);
    if (!target) {
      const row = await readHolding(tx, seriesId, p.step);
      if (!row) throw new Error(`series ${seriesId} has a max step but no chunk`);
      const key = Number(row.first_step);
      target = touched.find((t) => t.key === key);
      if (!target) touched.push((target = { points: rowPoints(row), key, incoming: [] }));
    }
    target.incoming.push(p);
  }
}

/** Splits a rewritten chunk for storage: the tail into pieces of CHUNK_POINTS, others past 2×. */
function pieces(t: Touched, isTail: boolean): [number, number][] {
  const n = t.points.steps.length;
  if (!isTail && n <= 2 * CHUNK_POINTS) return [[0, n]];
  const out: [number, number][] = [];
  for (let from = 0; from < n; from += CHUNK_POINTS) out.push([from, Math.min(n, from + CHUNK_POINTS)]);
  return out;
}

/** Plans one series' writes; returns its new tail, or undefined when nothing changed. */
async function writeSeries(
  tx: SqlExecutor,
  run: RunRef,
  row: SeriesRow,
  incoming: readonly RawPoint[],
  cache: TailCache,
  version: number,
  w: Writes,
): Promise<ChunkPoints | undefined> {
  const seriesId = Number(row.id);
  const s = rowState(row);
  let tail = cache.take(seriesId, Number(row.version));
  if (!tail && s.maxStep !== null) {
    const stored = await readTail(tx, seriesId);
    tail = stored && rowPoints(stored);
  }
  const touched: Touched[] = [];
  const tailKey = tail?.steps[0] ?? null;
  let open: Touched | undefined;
  if (tail && tailKey !== null) {
    open = { points: tail, key: tailKey, incoming: [] };
    touched.push(open);
  }
  const earlier = s.maxStep === null ? [] : incoming.filter((p) => p.step <= s.maxStep!);
  const appended = s.maxStep === null ? incoming : incoming.filter((p) => p.step > s.maxStep!);
  await placeEarlier(tx, seriesId, earlier, touched);
  if (appended.length > 0) {
    if (!open || open.points.steps.length >= CHUNK_POINTS) {
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
    const m = mergeInto(t.points, t.incoming, s.firstTime);
    for (const p of m.added) added.push(p);
    written += m.written;
    recompute ||= m.recompute;
    lastTime = Math.max(lastTime, m.lastTime);
  }
  if (written === 0) {
    if (tail) cache.put(seriesId, Number(row.version), tail);
    return undefined;
  }
  let newTail = tail;
  for (const t of touched) {
    if (t.incoming.length === 0 || t.points.steps.length === 0) continue;
    if (t.key !== null && t.points.steps[0] !== t.key) w.deletes.push([seriesId, t.key]);
    const parts = pieces(t, t === open);
    for (const [from, to] of parts) w.upserts.push(chunkParams(seriesId, t.points, from, to));
    if (t === open) {
      const [from, to] = parts[parts.length - 1]!;
      newTail = parts.length === 1 ? t.points : slicePoints(t.points, from, to);
    }
  }
  if (recompute) w.recompute.push({ row });
  else w.states.push(stateUpsertParams(row, run.projectId, nextState(s, added, lastTime), version));
  return newTail;
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
    if (Number.isFinite(p.value) && (next.lastStep === null || p.step > next.lastStep)) {
      next.lastStep = p.step;
      next.lastValue = p.value;
    }
  }
  return next;
}

/**
 * Stores a batch of points for one run in one transaction and updates the summaries of the
 * touched series: a few statements whatever the batch's size (chunk upserts and series
 * upserts each as one bulk statement). A re-sent batch writes nothing. Throws what the
 * database throws (rolled back; cached tails of the batch are dropped).
 */
export async function appendMetrics(
  db: SqlDb,
  cache: TailCache,
  run: RunRef,
  points: readonly MetricPointInput[],
): Promise<void> {
  if (points.length === 0) return;
  const batch = groupBatch(points);
  await db.transaction(async (tx) => {
    const version = newVersion();
    const names = [...batch.keys()].sort();
    const rows = await ensureSeries(tx, db.dialect.forUpdate, run, names);
    const w: Writes = { deletes: [], upserts: [], states: [], recompute: [] };
    const tails = new Map<number, ChunkPoints>();
    for (const name of names) {
      const row = rows.get(name);
      if (!row) throw new Error(`series ${name} of run ${run.id} could not be created`);
      const tail = await writeSeries(tx, run, row, batch.get(name)!, cache, version, w);
      if (tail) tails.set(Number(row.id), tail);
    }
    await deleteChunks(tx, w.deletes);
    await upsertChunks(tx, w.upserts);
    for (const { row } of w.recompute) {
      w.states.push(stateUpsertParams(row, run.projectId, await recomputeState(tx, Number(row.id)), version));
    }
    if (w.states.length > 0) await tx.runMany(UPSERT_SERIES_STATE, w.states);
    for (const [seriesId, tail] of tails) cache.put(seriesId, version, tail);
  });
}
