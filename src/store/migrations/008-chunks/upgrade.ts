/**
 * Upgrading a database written before chunks (migration 8): each series' rows of
 * metric_points are rewritten as chunks of CHUNK_POINTS and deleted, whole series per
 * transaction, so an interrupted upgrade resumes with the series not yet moved. Series
 * summaries are kept (they already describe the same points).
 *
 * FROZEN with its migration: this folder imports nothing of the live store but the database
 * handle's types. The chunk rows it writes are built here and in frozen-codec.ts, copies of
 * the live code taken when the upgrade was frozen, so later changes to the live chunk code
 * cannot change what this migration writes. Do not import live code here.
 */
import type { SqlDb, SqlExecutor } from '../../sql/db.js';
import type { SqlValue } from '../../sql/sql-value.js';
import { CHUNK_POINTS, chunkStats, encodeChunk, keyedByTime, tieOf, type ChunkPoints } from './frozen-codec.js';

/** Writes a chunk (parameters from chunkParams), replacing the one with the same series and key. */
const UPSERT_CHUNK =
  'INSERT INTO metric_chunks (series_id, first_step, first_tie, last_step, points, count, mean, mean_lo, m2, ' +
  'min_value, min_step, min_time, max_value, max_step, max_time, first_time, last_time, last_finite_step, ' +
  'last_finite_value, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ' +
  'ON CONFLICT (series_id, first_step, first_tie) DO UPDATE SET last_step = excluded.last_step, points = excluded.points, ' +
  'count = excluded.count, mean = excluded.mean, mean_lo = excluded.mean_lo, m2 = excluded.m2, ' +
  'min_value = excluded.min_value, min_step = excluded.min_step, min_time = excluded.min_time, ' +
  'max_value = excluded.max_value, max_step = excluded.max_step, max_time = excluded.max_time, ' +
  'first_time = excluded.first_time, last_time = excluded.last_time, last_finite_step = excluded.last_finite_step, ' +
  'last_finite_value = excluded.last_finite_value, data = excluded.data';

/** Returns the UPSERT_CHUNK parameters of a chunk of a series. */
function chunkParams(seriesId: number, c: ChunkPoints, byTime: boolean): SqlValue[] {
  const s = chunkStats(c);
  const m = s.moments;
  const some = m.count > 0;
  return [
    seriesId,
    s.firstStep,
    tieOf(byTime, c.times[0]!),
    s.lastStep,
    s.points,
    m.count,
    some ? m.mean : 0,
    some ? m.meanLo : 0,
    some ? m.m2 : 0,
    some ? m.min : null,
    s.minStep,
    s.minTime,
    some ? m.max : null,
    s.maxStep,
    s.maxTime,
    s.firstTime,
    s.lastTime,
    s.lastFiniteStep,
    s.lastFiniteValue,
    encodeChunk(c),
  ];
}

/** Writes chunks (rows of chunkParams), replacing those with the same series and key. */
async function upsertChunks(tx: SqlExecutor, rows: readonly SqlValue[][]): Promise<void> {
  if (rows.length > 0) await tx.runMany(UPSERT_CHUNK, rows);
}

/** Points read per query while moving a series. */
const PAGE = 20_000;

interface LegacyRow {
  step: number | string;
  time: number | string;
  value: number | null;
  flag: number | string;
}

const FLAG_VALUES = [NaN, NaN, Infinity, -Infinity];

/** Options of upgradePointsToChunks. */
export interface UpgradeOptions {
  /** A transaction moves whole series until it has moved at least this many points. */
  batchPoints?: number | undefined;
  /** Progress lines. */
  log?: (line: string) => void;
}

/** Moves one series' points into chunks and deletes them; returns the points moved. */
async function moveSeries(tx: SqlExecutor, seriesId: number): Promise<number> {
  const named = await tx.get<{ log_name: string }>('SELECT log_name FROM series WHERE id = ?', [seriesId]);
  const byTime = keyedByTime(named?.log_name ?? '');
  let moved = 0;
  let from = -Number.MAX_SAFE_INTEGER;
  let open: ChunkPoints = { steps: [], times: [], values: [] };
  const rows: SqlValue[][] = [];
  for (;;) {
    const page = await tx.all<LegacyRow>(
      'SELECT step, time, value, flag FROM metric_points WHERE series_id = ? AND step >= ? ORDER BY step LIMIT ?',
      [seriesId, from, PAGE],
    );
    for (const r of page) {
      open.steps.push(Number(r.step));
      open.times.push(Number(r.time));
      open.values.push(r.value === null ? (FLAG_VALUES[Number(r.flag)] ?? NaN) : Number(r.value));
      if (open.steps.length === CHUNK_POINTS) {
        rows.push(chunkParams(seriesId, open, byTime));
        open = { steps: [], times: [], values: [] };
      }
    }
    moved += page.length;
    if (rows.length >= 100) await upsertChunks(tx, rows.splice(0));
    if (page.length < PAGE) break;
    from = Number(page[page.length - 1]!.step) + 1;
  }
  if (open.steps.length > 0) rows.push(chunkParams(seriesId, open, byTime));
  await upsertChunks(tx, rows);
  await tx.run('DELETE FROM metric_points WHERE series_id = ?', [seriesId]);
  return moved;
}

/**
 * Rewrites every series' legacy points as chunks, in transactions of whole series of at
 * least `batchPoints` points (default 200,000), logging progress. Returns the points moved.
 */
export async function upgradePointsToChunks(db: SqlDb, o: UpgradeOptions = {}): Promise<number> {
  const first = await db.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM metric_points');
  const total = Number(first?.n ?? 0);
  if (total === 0) return 0;
  const log = o.log ?? (() => undefined);
  log(`moving ${total} metric points into chunks`);
  let moved = 0;
  for (;;) {
    const done = await db.transaction(async (tx) => {
      let n = 0;
      while (n < (o.batchPoints ?? 200_000)) {
        const next = await tx.get<{ series_id: number | string }>(
          'SELECT series_id FROM metric_points ORDER BY series_id LIMIT 1',
        );
        if (!next) return { n, finished: true };
        n += await moveSeries(tx, Number(next.series_id));
      }
      return { n, finished: false };
    });
    moved += done.n;
    log(`moved ${moved} of ${total} metric points into chunks`);
    if (done.finished) break;
  }
  return moved;
}
