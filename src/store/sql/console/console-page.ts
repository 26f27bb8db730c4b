/**
 * Pages of console lines as the logs answer carries them. A page is up to 10,000 lines, and
 * most of its cost was making JavaScript values: an array of five values per row, a line
 * object, an answer object, then JSON text. Here the database writes each line's JSON text
 * but for its time (one string per row), and the time is formatted by `iso` like every other
 * answer's: on SQLite, 10,000 lines in 6.7-7.5 ms instead of 12-15 ms in-process.
 */
import { iso } from '../../../domain/iso.js';
import { CONSOLE_LOG_TYPES } from '../../../domain/types.js';
import type { Dialect, SqlDb } from '../db.js';

/**
 * Each row's `<time in ms>","logType":…,"step":…}`: the line's answer object (time, logType,
 * lineNumber, message, step, in that order) without its opening `{"time":"` and time text.
 * The time's digits end at the first `"`.
 */
export const lineText = (d: Dialect): string =>
  `CAST(time AS TEXT) || '","logType":' || ${logTypeJson(d)} || ',"lineNumber":' || CAST(line_number AS TEXT)
   || ',"message":' || ${d.quoteJson('message')} || ',"step":' || CAST(step AS TEXT) || '}'`;

/**
 * log_type as a JSON string: the known types as constants, any other text quoted by the
 * engine. Quoting costs PostgreSQL a function call a row (to_json: 1.7 ms of its time for
 * 10,000 rows); the constants cost a comparison or two.
 */
const logTypeJson = (d: Dialect): string =>
  `CASE log_type ${CONSOLE_LOG_TYPES.map((t) => `WHEN '${t}' THEN '${JSON.stringify(t)}'`).join(' ')} ELSE ${d.quoteJson('log_type')} END`;

/** The row's full JSON text, its epoch-millisecond time written as ISO 8601 like every answer's. */
export function withTime(row: string): string {
  const cut = row.indexOf('"');
  return `{"time":"${iso(Number(row.slice(0, cut)))}${row.slice(cut)}`;
}

/**
 * Returns a page of a run's console lines ordered by time, then arrival, optionally of one
 * logType, each as the JSON text of its answer object `{time, logType, lineNumber, message,
 * step}` (time in ISO 8601), and the number of all matching lines. Reads one index range
 * whatever the offset.
 */
export async function listConsoleJson(
  db: SqlDb,
  runId: number,
  logType: string | null,
  limit: number,
  offset: number,
): Promise<{ lines: string[]; total: number }> {
  const select = `SELECT ${lineText(db.dialect)} FROM console_lines`;
  const rows =
    logType === null
      ? await db.column<string>(`${select} WHERE run_id = ? AND pos >= ? AND pos < ? ORDER BY pos`, [
          runId,
          offset,
          offset + limit,
        ])
      : await db.column<string>(
          `${select} WHERE run_id = ? AND log_type = ? AND type_pos >= ? AND type_pos < ? ORDER BY type_pos`,
          [runId, logType, offset, offset + limit],
        );
  const count =
    logType === null
      ? await db.get<{ n: number | string }>('SELECT line_count AS n FROM console_runs WHERE run_id = ?', [runId])
      : await db.get<{ n: number | string }>(
          'SELECT line_count AS n FROM console_counts WHERE run_id = ? AND log_type = ?',
          [runId, logType],
        );
  return { lines: rows.map(withTime), total: Number(count?.n ?? 0) };
}
