/** Console lines of runs: idempotent appends, listing in production order with totals. */
import type { ConsoleLine } from '../series-store.js';
import type { SqlDb } from './sql-db.js';

interface ConsoleRow {
  time: number | string;
  log_type: string;
  line_number: number | string;
  message: string;
  step: number | string;
}

/**
 * Stores console lines in one transaction, in the given (arrival) order; a line already
 * stored with the same (run, logType, lineNumber, time) is skipped. Throws what the database throws.
 */
export async function appendConsole(db: SqlDb, runId: number, lines: readonly ConsoleLine[]): Promise<void> {
  if (lines.length === 0) return;
  await db.transaction((tx) =>
    tx.runMany(
      `INSERT INTO console_lines (run_id, time, log_type, line_number, message, step) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (run_id, log_type, line_number, time) DO NOTHING`,
      lines.map((l) => [runId, l.time, l.logType, l.lineNumber, l.message, l.step]),
    ),
  );
}

/**
 * Returns a page of a run's console lines ordered by time, then arrival, optionally of one
 * logType, and the number of all matching lines.
 */
export async function listConsole(
  db: SqlDb,
  runId: number,
  logType: string | null,
  limit: number,
  offset: number,
): Promise<{ lines: ConsoleLine[]; total: number }> {
  const where = logType === null ? 'run_id = ?' : 'run_id = ? AND log_type = ?';
  const params = logType === null ? [runId] : [runId, logType];
  const rows = await db.all<ConsoleRow>(
    `SELECT time, log_type, line_number, message, step FROM console_lines WHERE ${where} ORDER BY time, id LIMIT ? OFFSET ?`,
    [...params, limit, offset],
  );
  const count = await db.get<{ n: number | string }>(`SELECT COUNT(*) AS n FROM console_lines WHERE ${where}`, params);
  return {
    lines: rows.map((r) => ({
      time: Number(r.time),
      logType: r.log_type,
      lineNumber: Number(r.line_number),
      message: r.message,
      step: Number(r.step),
    })),
    total: Number(count?.n ?? 0),
  };
}
