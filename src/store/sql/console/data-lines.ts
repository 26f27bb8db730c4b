/** Data lines (histograms, tables, text) of runs: idempotent appends and paged listing. */
import type { DataLine } from '../../../domain/types.js';
import type { SqlDb } from '../db.js';

interface DataRow {
  time: number | string;
  step: number | string;
  log_name: string;
  data_type: string;
  data: string;
}

/**
 * Stores data lines in one transaction; a line already stored with the same (run, logName,
 * step, time) is skipped. Throws what the database throws.
 */
export async function appendData(db: SqlDb, runId: number, lines: readonly DataLine[]): Promise<void> {
  if (lines.length === 0) return;
  await db.transaction((tx) =>
    tx.runMany(
      `INSERT INTO data_lines (run_id, log_name, data_type, step, time, data) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (run_id, log_name, step, time) DO NOTHING`,
      lines.map((l) => [runId, l.logName, l.dataType, l.step, l.time, l.data]),
    ),
  );
}

/**
 * Returns a page of a run's data lines ordered by step, time, then arrival, optionally of
 * one logName, and the number of all matching lines.
 */
export async function listData(
  db: SqlDb,
  runId: number,
  logName: string | null,
  limit: number,
  offset: number,
): Promise<{ lines: DataLine[]; total: number }> {
  const where = logName === null ? 'run_id = ?' : 'run_id = ? AND log_name = ?';
  const params = logName === null ? [runId] : [runId, logName];
  const rows = await db.all<DataRow>(
    `SELECT time, step, log_name, data_type, data FROM data_lines WHERE ${where} ORDER BY step, time, id LIMIT ? OFFSET ?`,
    [...params, limit, offset],
  );
  const count = await db.get<{ n: number | string }>(`SELECT COUNT(*) AS n FROM data_lines WHERE ${where}`, params);
  return {
    lines: rows.map((r) => ({
      time: Number(r.time),
      step: Number(r.step),
      logName: r.log_name,
      dataType: r.data_type,
      data: r.data,
    })),
    total: Number(count?.n ?? 0),
  };
}
