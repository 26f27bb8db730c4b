/**
 * Console lines that contain a text and/or lie in a step range: the MCP tool get_logs
 * (docs/api.md §17). Its cost is the client's to choose (a substring scans the run's lines),
 * so it is an ad-hoc read: off the event loop, stopped at the query deadline.
 */
import { joinFrags, type Frag } from '../search-dialect.js';
import type { SqlDb } from '../db.js';
import type { ConsoleSearch } from '../../series-store.js';
import { lineText, withTime } from './console-page.js';

/**
 * Returns a page of the run's console lines that match, in production order, each as the
 * JSON text of its answer object (as listConsoleJson), and how many match. Throws
 * QUERY_TIMEOUT past the database's query deadline.
 */
export async function searchConsoleJson(
  db: SqlDb,
  runId: number,
  q: ConsoleSearch,
  limit: number,
  offset: number,
): Promise<{ lines: string[]; total: number }> {
  const d = db.dialect;
  const parts: Frag[] = [{ sql: 'run_id = ?', params: [runId] }];
  const guard = d.search.rowGuard?.('id');
  if (guard) parts.push({ sql: guard, params: [] });
  if (q.logType !== null) parts.push({ sql: 'log_type = ?', params: [q.logType] });
  if (q.stepMin !== null) parts.push({ sql: 'step >= ?', params: [q.stepMin] });
  if (q.stepMax !== null) parts.push({ sql: 'step <= ?', params: [q.stepMax] });
  if (q.contains !== null && q.contains !== '') {
    parts.push(
      d.search.containsFolded(
        'message',
        q.contains.replace(/[A-Z]/g, (c) => c.toLowerCase()),
      ),
    );
  }
  const where = joinFrags(parts, ' AND ');
  const rows = await db.allAdHoc<{ line: string }>(
    `SELECT ${lineText(d)} AS line FROM console_lines WHERE ${where.sql} ORDER BY pos LIMIT ? OFFSET ?`,
    [...where.params, limit, offset],
  );
  const count = await db.allAdHoc<{ n: number | string }>(
    `SELECT COUNT(*) AS n FROM console_lines WHERE ${where.sql}`,
    where.params,
  );
  return { lines: rows.map((r) => withTime(r.line)), total: Number(count[0]?.n ?? 0) };
}
