/** Recomputing a series' stored summary from its points, inside the database. */
import type { SqlExecutor } from './sql-db.js';
import { seriesPages } from './sql-effective-points.js';
import { emptyState, STEP_BOUND, type SeriesState } from './sql-series-row.js';
import { SummaryAccumulator } from './summary-accumulator.js';

/**
 * In-database sums stay finite below this magnitude (2^53 squared deviations of 2e145 are
 * < 1.8e308). PostgreSQL raises an error where IEEE arithmetic gives Infinity or 0, so
 * series with larger values are summed here instead, and squares of deviations too small to
 * be represented (|d| < 1.6e-162) count as the 0 that IEEE arithmetic makes of them.
 */
const SAFE_MAGNITUDE = 1e145;

interface AggregateRow {
  points: number | string;
  n: number | string;
  mean: number | null;
  lo: number | null;
  hi: number | null;
  s0: number | string | null;
  s1: number | string | null;
  t0: number | string | null;
  t1: number | string | null;
}

const opt = (v: number | string | null): number | null => (v === null ? null : Number(v));

/**
 * Returns the summary of a series recomputed from all its stored points inside the database
 * (no rows leave it): a corrected two-pass (mean, then squared deviations and their residual).
 * A series with a value of magnitude 1e145 or more is summed in pages here instead.
 */
export async function recomputeState(tx: SqlExecutor, seriesId: number): Promise<SeriesState> {
  const a = await tx.get<AggregateRow>(
    `SELECT COUNT(*) AS points, COUNT(value) AS n,
       AVG(CASE WHEN value > -${SAFE_MAGNITUDE} AND value < ${SAFE_MAGNITUDE} THEN value END) AS mean, MIN(value) AS lo, MAX(value) AS hi,
       MIN(step) AS s0, MAX(step) AS s1, MIN(time) AS t0, MAX(time) AS t1 FROM metric_points WHERE series_id = ?`,
    [seriesId],
  );
  const state = emptyState();
  if (!a || Number(a.points) === 0) return state;
  Object.assign(state, {
    points: Number(a.points),
    firstStep: opt(a.s0),
    maxStep: opt(a.s1),
    firstTime: opt(a.t0),
    lastTime: opt(a.t1),
  });
  const n = Number(a.n);
  if (n === 0) return state;
  if (a.mean === null || Math.max(-Number(a.lo), Number(a.hi)) >= SAFE_MAGNITUDE) return summedHere(tx, seriesId);
  const rough = Number(a.mean);
  const dev = await tx.get<{ sq: number | null; r: number | null }>(
    `SELECT SUM(CASE WHEN d > -1.6e-162 AND d < 1.6e-162 THEN 0 ELSE d * d END) AS sq, SUM(d) AS r
     FROM (SELECT value - ? AS d FROM metric_points WHERE series_id = ? AND value IS NOT NULL) AS deviations`,
    [rough, seriesId],
  );
  const residual = Number(dev?.r ?? 0);
  const [mean, meanLo] = twoSum(rough, residual / n);
  const m2 = Math.max(0, Number(dev?.sq ?? 0) - (residual * residual) / n);
  state.moments = { count: n, mean, meanLo, m2, min: Number(a.lo), max: Number(a.hi) };
  const last = await tx.get<{ step: number | string; value: number }>(
    'SELECT step, value FROM metric_points WHERE series_id = ? AND value IS NOT NULL ORDER BY step DESC LIMIT 1',
    [seriesId],
  );
  state.lastStep = last ? Number(last.step) : null;
  state.lastValue = last ? Number(last.value) : null;
  return state;
}

/** Returns the summary of a series from its points read in pages (O(page) memory). */
async function summedHere(tx: SqlExecutor, seriesId: number): Promise<SeriesState> {
  const acc = new SummaryAccumulator();
  for await (const page of seriesPages(tx, seriesId, -STEP_BOUND, STEP_BOUND)) acc.pushAll(page);
  return acc.finish();
}

/** Returns a + b as [rounded sum, its rounding error] (Knuth's TwoSum). */
function twoSum(a: number, b: number): [number, number] {
  const sum = a + b;
  const bPart = sum - a;
  return [sum, a - (sum - bPart) + (b - bPart)];
}
