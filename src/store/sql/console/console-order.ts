/**
 * Where console lines go in a run's production order (time, then arrival) and how the
 * stored lines make room: binary search over the dense numbers `pos` and `type_pos` (both
 * in time order, see console.ts), range shifts, and the window-function renumbering of
 * a run's tail. Portable SQL with `?` placeholders only.
 */
import type { ConsoleLine } from '../../../domain/types.js';
import type { SqlExecutor } from '../db.js';
import type { SqlValue } from '../sql-value.js';

/**
 * Renumbers the tail (pos >= p0) by time, then pos: stored lines keep their order and new
 * ones (numbered from `stored` in batch order) follow them. pos counts from p0; type_pos
 * from the type's lines before the tail (its count before this append, `c`, less its
 * stored lines inside the tail). Parameters: p0, stored, runId, p0.
 */
export const RENUMBER_TAIL = `
UPDATE console_lines SET pos = r.p, type_pos = r.tp
FROM (
  SELECT l.id,
    ? + ROW_NUMBER() OVER (ORDER BY l.time, l.pos) - 1 AS p,
    COALESCE(c.line_count, 0) - SUM(CASE WHEN l.pos < ? THEN 1 ELSE 0 END) OVER (PARTITION BY l.log_type)
      + ROW_NUMBER() OVER (PARTITION BY l.log_type ORDER BY l.time, l.pos) - 1 AS tp
  FROM console_lines l
  LEFT JOIN console_counts c ON c.run_id = l.run_id AND c.log_type = l.log_type
  WHERE l.run_id = ? AND l.pos >= ?
) AS r
WHERE console_lines.id = r.id AND (console_lines.pos <> r.p OR console_lines.type_pos <> r.tp)`;

/** The numbers new lines are stored with: line j gets pos[j] and typePos[j]. */
export interface Numbers {
  pos: Float64Array;
  typePos: Float64Array;
}

/**
 * Makes room for the new lines: the first places.length of them (earlier than stored
 * lines) go after places[j] stored lines; the stored lines after each place move up by
 * the number of new lines before them, likewise per logType. Returns each line's numbers.
 */
export async function makeRoom(
  tx: SqlExecutor,
  runId: number,
  state: { stored: number; counts: ReadonlyMap<string, number> },
  fresh: readonly ConsoleLine[],
  places: readonly number[],
): Promise<Numbers> {
  const pos = new Float64Array(fresh.length);
  const typePos = new Float64Array(fresh.length);
  const next = new Map(state.counts);
  for (let j = 0; j < fresh.length; j++) {
    const logType = (fresh[j] as ConsoleLine).logType;
    const n = next.get(logType) ?? 0;
    next.set(logType, n + 1);
    pos[j] = j < places.length ? (places[j] as number) + j : state.stored + j;
    typePos[j] = n;
  }
  if (places.length === 0) return { pos, typePos };
  await shiftRanges(
    tx,
    'UPDATE console_lines SET pos = pos + ? WHERE run_id = ? AND pos >= ? AND pos < ?',
    [runId],
    places,
    state.stored,
  );
  const lateTypes = new Set(fresh.slice(0, places.length).map((l) => l.logType));
  for (const logType of lateTypes) {
    const stored = state.counts.get(logType) ?? 0;
    const late = fresh.flatMap((l, j) => (j < places.length && l.logType === logType ? [j] : []));
    // A type's late lines fall into no more gaps than all late lines do: this never stops early.
    const typePlaces = await placesOf(
      typeProbe(tx, runId, logType),
      late.map((j) => (fresh[j] as ConsoleLine).time),
      stored,
      Infinity,
    );
    await shiftRanges(
      tx,
      'UPDATE console_lines SET type_pos = type_pos + ? WHERE run_id = ? AND log_type = ? AND type_pos >= ? AND type_pos < ?',
      [runId, logType],
      typePlaces,
      stored,
    );
    // The i-th late line of the type goes after typePlaces[i] stored ones and i new ones.
    late.forEach((j, i) => (typePos[j] = (typePlaces[i] as number) + i));
  }
  return { pos, typePos };
}

/**
 * Adds k + 1 to the numbers in [places[k], places[k + 1]) (the last range ends at `end`),
 * highest range first so that no row is moved twice.
 */
async function shiftRanges(tx: SqlExecutor, sql: string, key: SqlValue[], places: readonly number[], end: number) {
  for (let k = places.length - 1; k >= 0; k--) {
    const from = places[k] as number;
    const to = k + 1 < places.length ? (places[k + 1] as number) : end;
    if (from < to) await tx.run(sql, [k + 1, ...key, from, to]);
  }
}

/** The time of the stored line numbered i (only asked for numbers that exist). */
export type Probe = (i: number) => Promise<number>;

/** A probe running `sql`, which selects the time of a line by `key` and then its number. */
const probe =
  (tx: SqlExecutor, sql: string, key: SqlValue[]): Probe =>
  async (i) =>
    Number((await tx.get<{ time: number | string }>(sql, [...key, i]))?.time);

/** Probes a run's lines by pos. */
export const posProbe = (tx: SqlExecutor, runId: number) =>
  probe(tx, 'SELECT time FROM console_lines WHERE run_id = ? AND pos = ?', [runId]);

/** Probes a run's lines of one logType by type_pos. */
const typeProbe = (tx: SqlExecutor, runId: number, logType: string) =>
  probe(tx, 'SELECT time FROM console_lines WHERE run_id = ? AND log_type = ? AND type_pos = ?', [runId, logType]);

/**
 * The place of each of the nondecreasing `times` among stored lines numbered [0, end):
 * how many have a time at or before it. Times falling into the same gap between stored
 * lines cost one search; after searching `most` gaps (at least one) it stops, returning
 * the places found so far (fewer than times).
 */
export async function placesOf(timeAt: Probe, times: readonly number[], end: number, most: number): Promise<number[]> {
  const places: number[] = [];
  for (let j = 0, lo = 0, gaps = 0; j < times.length && gaps < Math.max(1, most); gaps++) {
    lo = await countUpTo(timeAt, lo, end, times[j] as number);
    const next = lo < end ? await timeAt(lo) : Infinity;
    do {
      places.push(lo);
      j++;
    } while (j < times.length && (times[j] as number) < next);
  }
  return places;
}

/** The first i in [lo, hi) whose time (nondecreasing in i) is after `time`, or hi: the lines at or before it. */
export async function countUpTo(timeAt: Probe, lo: number, hi: number, time: number): Promise<number> {
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if ((await timeAt(mid)) <= time) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
