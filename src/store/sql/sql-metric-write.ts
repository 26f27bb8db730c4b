/**
 * Metric ingest: one transaction per batch, one point per (series, step) with the later time
 * winning, and exact series summaries updated in the same transaction.
 */
import { logGroupOf } from '../../domain/log-group.js';
import { mergeMoments, momentsOf } from '../../domain/summary.js';
import type { MetricPointInput, RunRef } from '../series-store.js';
import type { SqlDb, SqlExecutor, SqlValue } from './sql-db.js';
import { type RollupChange, updateRollups } from './sql-rollup-write.js';
import { seriesPages, toStored, type PointRow } from './sql-effective-points.js';
import { recomputeState } from './sql-metric-recompute.js';
import { chunks, IN_CHUNK } from './sql-util.js';
import {
  encodeValue,
  rowState,
  SERIES_COLUMNS,
  stateParams,
  UPDATE_SERIES_STATE,
  type SeriesRow,
  type SeriesState,
  type StoredPoint,
} from './sql-series-row.js';

const UPSERT_POINT =
  'INSERT INTO metric_points (series_id, step, time, value, flag) VALUES (?, ?, ?, ?, ?) ' +
  'ON CONFLICT (series_id, step) DO UPDATE SET time = excluded.time, value = excluded.value, flag = excluded.flag';

/** Returns the batch per logName as step → winning point (later time; equal: later line). */
function groupBatch(points: readonly MetricPointInput[]): Map<string, Map<number, StoredPoint>> {
  const byName = new Map<string, Map<number, StoredPoint>>();
  for (const p of points) {
    let steps = byName.get(p.logName);
    if (!steps) {
      steps = new Map();
      byName.set(p.logName, steps);
    }
    const held = steps.get(p.step);
    if (held === undefined || p.time >= held.time)
      steps.set(p.step, { step: p.step, time: p.time, ...encodeValue(p.value) });
  }
  return byName;
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

/**
 * Returns the stored points of the series at these steps (ascending), by step: one range
 * read when the steps are dense, else `IN (...)` lookups of at most IN_CHUNK steps.
 */
async function storedAt(
  tx: SqlExecutor,
  seriesId: number,
  steps: readonly number[],
): Promise<Map<number, StoredPoint>> {
  const out = new Map<number, StoredPoint>();
  const first = steps[0];
  const last = steps[steps.length - 1];
  if (first === undefined || last === undefined) return out;
  if (last - first < 4 * steps.length) {
    const wanted = new Set(steps);
    for await (const page of seriesPages(tx, seriesId, first, last)) {
      for (const p of page) if (wanted.has(p.step)) out.set(p.step, p);
    }
    return out;
  }
  for (const part of chunks(steps, IN_CHUNK)) {
    const rows = await tx.all<PointRow>(
      `SELECT step, time, value, flag FROM metric_points WHERE series_id = ? AND step IN (${part.map(() => '?').join(', ')})`,
      [seriesId, ...part],
    );
    for (const r of rows) out.set(Number(r.step), toStored(r));
  }
  return out;
}

/** What a batch does to one series: the points to write, and how to update its summary. */
interface SeriesPlan {
  writes: StoredPoint[];
  /** Points at steps not stored before. */
  added: StoredPoint[];
  /** Steps whose stored value or flag this batch changes. */
  changed: number[];
  /** The new summary, or null when it must be recomputed from the stored points. */
  next: SeriesState | null;
}

/**
 * Decides which incoming points replace stored ones and merges the summary when no stored
 * value changes; a changed value or flag (or a moved earliest time) asks for a recompute.
 */
function planSeries(row: SeriesRow, incoming: readonly StoredPoint[], stored: Map<number, StoredPoint>): SeriesPlan {
  const s = rowState(row);
  const writes: StoredPoint[] = [];
  const added: StoredPoint[] = [];
  const changed: number[] = [];
  let recompute = false;
  for (const p of incoming) {
    const old = stored.get(p.step);
    if (old === undefined) added.push(p);
    else if (old.time > p.time) continue;
    else if (old.value === p.value && old.flag === p.flag) {
      if (old.time === p.time) continue;
      if (old.time === s.firstTime) recompute = true;
    } else {
      recompute = true;
      changed.push(p.step);
    }
    writes.push(p);
  }
  if (recompute || writes.length === 0) return { writes, added, changed, next: null };
  const next: SeriesState = { ...s, moments: mergeMoments(s.moments, momentsOf(added.flatMap((p) => p.value ?? []))) };
  next.points += added.length;
  for (const p of writes) {
    if (next.lastTime === null || p.time > next.lastTime) next.lastTime = p.time;
  }
  for (const p of added) {
    if (next.firstStep === null || p.step < next.firstStep) next.firstStep = p.step;
    if (next.maxStep === null || p.step > next.maxStep) next.maxStep = p.step;
    if (next.firstTime === null || p.time < next.firstTime) next.firstTime = p.time;
    if (p.value !== null && (next.lastStep === null || p.step > next.lastStep)) {
      next.lastStep = p.step;
      next.lastValue = p.value;
    }
  }
  return { writes, added, changed, next };
}

/**
 * Stores a batch of points for one run in one transaction and updates the summaries of the
 * touched series. A re-sent batch writes nothing. Throws what the database throws (rolled back).
 */
export async function appendMetrics(db: SqlDb, run: RunRef, points: readonly MetricPointInput[]): Promise<void> {
  if (points.length === 0) return;
  const batch = groupBatch(points);
  await db.transaction(async (tx) => {
    const names = [...batch.keys()].sort();
    const rows = await ensureSeries(tx, db.dialect.forUpdate, run, names);
    const upserts: SqlValue[][] = [];
    const updates: SqlValue[][] = [];
    const recompute: number[] = [];
    const rollups: { seriesId: number; change: RollupChange }[] = [];
    for (const name of names) {
      const row = rows.get(name);
      const bySteps = batch.get(name);
      if (!row || !bySteps) throw new Error(`series ${name} of run ${run.id} could not be created`);
      const seriesId = Number(row.id);
      const incoming = [...bySteps.values()].sort((a, b) => a.step - b.step);
      // Appends (every step above the stored ones, the usual case) cannot replace anything.
      const appendOnly = row.max_step === null || incoming[0]!.step > Number(row.max_step);
      const stored = appendOnly
        ? new Map<number, StoredPoint>()
        : await storedAt(
            tx,
            seriesId,
            incoming.map((p) => p.step),
          );
      const plan = planSeries(row, incoming, stored);
      if (plan.writes.length === 0) continue;
      for (const p of plan.writes) upserts.push([seriesId, p.step, p.time, p.value, p.flag]);
      if (plan.next) updates.push(stateParams(plan.next, seriesId));
      else recompute.push(seriesId);
      if (plan.added.length > 0 || plan.changed.length > 0) {
        let maxStep = row.max_step === null ? null : Number(row.max_step);
        for (const p of plan.added) if (maxStep === null || p.step > maxStep) maxStep = p.step;
        rollups.push({
          seriesId,
          change: { top: Number(row.rollup_level), maxStep, added: plan.added, changedSteps: plan.changed },
        });
      }
    }
    if (upserts.length > 0) await tx.runMany(UPSERT_POINT, upserts);
    const levels: SqlValue[][] = [];
    for (const { seriesId, change } of rollups) {
      const top = await updateRollups(tx, seriesId, change);
      if (top !== change.top) levels.push([top, seriesId]);
    }
    if (levels.length > 0) await tx.runMany('UPDATE series SET rollup_level = ? WHERE id = ?', levels);
    for (const seriesId of recompute) updates.push(stateParams(await recomputeState(tx, seriesId), seriesId));
    if (updates.length > 0) await tx.runMany(UPDATE_SERIES_STATE, updates);
  });
}
