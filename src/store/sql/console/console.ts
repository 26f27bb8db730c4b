/**
 * Console lines of runs: idempotent appends in production order, with totals (pages are read
 * by console-page.ts).
 *
 * Every line carries its rank in production order (time, then arrival): `pos` among its
 * run's lines and `type_pos` among its run's lines of its logType, both dense from 0, so a
 * page is one index range at any offset. Totals come from console_runs (per run, also the
 * row an append locks) and console_counts (per run and logType). An append drops lines
 * already stored, finds by binary search where lines older than the run's latest go, moves
 * the numbers of the stored lines after those places by range updates, and inserts every
 * line with its final numbers. Lines interleaved with many stored ones are instead
 * inserted at the end and the tail is renumbered by a window function. Either way each
 * commit leaves the numbering dense and in order.
 */
import type { ConsoleLine } from '../../../domain/types.js';
import { countUpTo, makeRoom, placesOf, posProbe, RENUMBER_TAIL } from './console-order.js';
import type { SqlDb, SqlExecutor } from '../db.js';
import type { SqlValue } from '../sql-value.js';

/**
 * Late lines landing in up to this many gaps between stored lines are put in place by
 * shifting the ranges between the gaps; more interleaved ones by renumbering the tail.
 */
const MAX_GAPS = 32;

/** What an append needs to know of the stored lines; the console_runs row is locked. */
interface RunState {
  stored: number;
  maxTime: number;
  counts: Map<string, number>;
}

const INSERT = `INSERT INTO console_lines (run_id, time, log_type, line_number, message, step, pos, type_pos)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (run_id, log_type, line_number, time) DO NOTHING`;

/**
 * Stores console lines in one transaction; a line already stored with the same (run,
 * logType, lineNumber, time), or earlier in the batch, is skipped. Lines of equal time keep
 * their arrival order. Lines later than the stored ones cost O(lines); earlier ones add
 * O(log n) searches per gap they fall into and move the numbers of the lines after them.
 * Throws what the database throws.
 */
export async function appendConsole(db: SqlDb, runId: number, lines: readonly ConsoleLine[]): Promise<void> {
  if (lines.length === 0) return;
  // A stable sort: lines of equal time keep their arrival order.
  const batch = firstOfEachKey(isSortedByTime(lines) ? lines : [...lines].sort((a, b) => a.time - b.time));
  await db.transaction(async (tx) => {
    const state = await lockRun(tx, db.dialect.forUpdate, runId);
    const fresh = await withoutStored(tx, runId, batch, state.maxTime);
    if (fresh === undefined) return appendAndRenumber(tx, runId, state, batch);
    if (fresh.length === 0) return;
    const inOrder = fresh.findIndex((l) => l.time >= state.maxTime);
    const lateTimes = fresh.slice(0, inOrder === -1 ? fresh.length : inOrder).map((l) => l.time);
    const places = await placesOf(posProbe(tx, runId), lateTimes, state.stored, MAX_GAPS);
    if (places.length < lateTimes.length) return appendAndRenumber(tx, runId, state, fresh);
    const { pos, typePos } = await makeRoom(tx, runId, state, fresh, places);
    const inserted = await tx.runMany(
      INSERT,
      fresh.map((l, j): SqlValue[] => [
        runId,
        l.time,
        l.logType,
        l.lineNumber,
        l.message,
        l.step,
        pos[j]!,
        typePos[j]!,
      ]),
    );
    if (inserted !== fresh.length) throw new Error(`console lines of run ${runId} changed during an append`);
    await saveCounts(tx, runId, state, fresh, tally(state.counts, fresh));
  });
}

/** Creates and locks the run's console_runs row; returns its count, latest time and type counts. */
async function lockRun(tx: SqlExecutor, forUpdate: string, runId: number): Promise<RunState> {
  await tx.run(
    'INSERT INTO console_runs (run_id, line_count, max_time) VALUES (?, 0, NULL) ON CONFLICT (run_id) DO NOTHING',
    [runId],
  );
  const run = await tx.get<{ line_count: number | string; max_time: number | string | null }>(
    `SELECT line_count, max_time FROM console_runs WHERE run_id = ? ${forUpdate}`,
    [runId],
  );
  const types = await tx.all<{ log_type: string; line_count: number | string }>(
    'SELECT log_type, line_count FROM console_counts WHERE run_id = ?',
    [runId],
  );
  return {
    stored: Number(run?.line_count ?? 0),
    maxTime: run?.max_time == null ? -Infinity : Number(run.max_time),
    counts: new Map(types.map((t) => [t.log_type, Number(t.line_count)])),
  };
}

const keyOf = (logType: string, lineNumber: number, time: number) => `${logType}\u0000${lineNumber}\u0000${time}`;

/** The first line of each key, in order; `lines` is sorted by time, so only equal times can clash. */
function firstOfEachKey(lines: readonly ConsoleLine[]): readonly ConsoleLine[] {
  let out: ConsoleLine[] | undefined;
  const seen = new Set<string>();
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as ConsoleLine;
    const tied = lines[i - 1]?.time === l.time || lines[i + 1]?.time === l.time;
    if (lines[i - 1]?.time !== l.time) seen.clear();
    const key = tied ? keyOf(l.logType, l.lineNumber, l.time) : '';
    if (tied && seen.has(key)) {
      out ??= lines.slice(0, i);
      continue;
    }
    if (tied) seen.add(key);
    out?.push(l);
  }
  return out ?? lines;
}

/**
 * The lines not stored yet. Only lines no later than the stored ones can be; they are
 * looked up by one lineNumber range per logType on the unique index. Returns undefined
 * when such a range holds many more stored lines than it looks for (say, numbering that
 * restarted), leaving the duplicates to the insert.
 */
async function withoutStored(tx: SqlExecutor, runId: number, lines: readonly ConsoleLine[], maxTime: number) {
  const ranges = new Map<string, { lo: number; hi: number; count: number }>();
  for (const l of lines) {
    if (l.time > maxTime) continue;
    const r = ranges.get(l.logType) ?? { lo: l.lineNumber, hi: l.lineNumber, count: 0 };
    ranges.set(l.logType, { lo: Math.min(r.lo, l.lineNumber), hi: Math.max(r.hi, l.lineNumber), count: r.count + 1 });
  }
  const stored = new Set<string>();
  for (const [logType, { lo, hi, count }] of ranges) {
    const cap = 4 * count + 64;
    const rows = await tx.all<{ line_number: number | string; time: number | string }>(
      `SELECT line_number, time FROM console_lines
       WHERE run_id = ? AND log_type = ? AND line_number >= ? AND line_number <= ? LIMIT ?`,
      [runId, logType, lo, hi, cap + 1],
    );
    if (rows.length > cap) return undefined;
    for (const r of rows) stored.add(keyOf(logType, Number(r.line_number), Number(r.time)));
  }
  return stored.size === 0 ? lines : lines.filter((l) => !stored.has(keyOf(l.logType, l.lineNumber, l.time)));
}

/**
 * The fallback for lines interleaved with many stored ones or duplicate checks too wide:
 * inserts them numbered after the stored lines, then renumbers the tail from the first
 * stored line they precede.
 */
async function appendAndRenumber(tx: SqlExecutor, runId: number, state: RunState, lines: readonly ConsoleLine[]) {
  const next = new Map(state.counts);
  const rows = lines.map((l, j) => {
    const typePos = next.get(l.logType) ?? 0;
    next.set(l.logType, typePos + 1);
    return [runId, l.time, l.logType, l.lineNumber, l.message, l.step, state.stored + j, typePos];
  });
  const inserted = await tx.runMany(INSERT, rows);
  if (inserted === 0) return;
  const first = (lines[0] as ConsoleLine).time;
  if (inserted === lines.length && first >= state.maxTime) return saveCounts(tx, runId, state, lines, next);
  const p0 = first < state.maxTime ? await countUpTo(posProbe(tx, runId), 0, state.stored, first) : state.stored;
  await tx.run(RENUMBER_TAIL, [p0, state.stored, runId, p0]);
  const counts = new Map(state.counts);
  for (const c of await tx.all<{ log_type: string; n: number | string }>(
    'SELECT log_type, MAX(type_pos) + 1 AS n FROM console_lines WHERE run_id = ? AND pos >= ? GROUP BY log_type',
    [runId, p0],
  )) {
    counts.set(c.log_type, Number(c.n));
  }
  await saveCounts(tx, runId, state, lines, counts, inserted);
}

/** The type counts after adding `lines`. */
function tally(counts: Map<string, number>, lines: readonly ConsoleLine[]): Map<string, number> {
  const out = new Map(counts);
  for (const l of lines) out.set(l.logType, (out.get(l.logType) ?? 0) + 1);
  return out;
}

/** Records the run's new line count and latest time, and its type counts. */
async function saveCounts(
  tx: SqlExecutor,
  runId: number,
  state: RunState,
  lines: readonly ConsoleLine[],
  counts: Map<string, number>,
  inserted = lines.length,
): Promise<void> {
  await tx.run('UPDATE console_runs SET line_count = ?, max_time = ? WHERE run_id = ?', [
    state.stored + inserted,
    lines.reduce((max, l) => Math.max(max, l.time), state.maxTime),
    runId,
  ]);
  await tx.runMany(
    `INSERT INTO console_counts (run_id, log_type, line_count) VALUES (?, ?, ?)
     ON CONFLICT (run_id, log_type) DO UPDATE SET line_count = excluded.line_count`,
    [...counts].map(([logType, n]) => [runId, logType, n]),
  );
}

/** Whether the lines' times never decrease. */
function isSortedByTime(lines: readonly ConsoleLine[]): boolean {
  for (let i = 1; i < lines.length; i++) {
    if ((lines[i] as ConsoleLine).time < (lines[i - 1] as ConsoleLine).time) return false;
  }
  return true;
}
