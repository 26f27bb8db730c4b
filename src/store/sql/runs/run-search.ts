/**
 * Run search in SQL: one project's runs of one organization, filtered by the compiled
 * filter, ordered by a run field, a config or systemMetadata key, paged; or every matching
 * id for a caller that sorts by something the metadata store does not hold (metrics).
 */
import type { SearchSort } from '../../../domain/run-search.js';
import type { RunSearchQuery } from '../../metadata-store.js';
import type { Dialect, SqlDb } from '../db.js';
import { compileFilter } from './run-filter.js';
import { type Frag, joinFrags } from '../search-dialect.js';
import { liveRun } from './live-runs.js';

const COLUMN_SORT: Record<string, string> = { status: 'r.status', name: 'r.name' };

/**
 * ORDER BY terms: runs without the key last in both directions, then the key, then id in
 * the sort's direction. A JSON key orders numbers, then strings (code points), then
 * booleans (descending is the exact reverse); null, objects and arrays count as missing.
 */
function orderBy(d: Dialect, sort: SearchSort): Frag {
  const dir = sort.descending ? 'DESC' : 'ASC';
  const f = sort.field;
  if (f.kind === 'status' || f.kind === 'name') {
    return { sql: `${COLUMN_SORT[f.kind]} ${d.binaryCollate} ${dir}, r.id ${dir}`, params: [] };
  }
  if (f.kind === 'time' || f.kind === 'forkParent') {
    const c = f.kind === 'time' ? `r.${f.column}` : 'r.forked_from_run_id';
    return { sql: `CASE WHEN ${c} IS NULL THEN 1 ELSE 0 END, ${c} ${dir}, r.id ${dir}`, params: [] };
  }
  if (f.kind !== 'json') throw new Error(`the store cannot sort by ${f.kind}`);
  const col = `r.${f.column}`;
  const num = d.search.jsonNumber(col, f.path);
  const str = d.search.jsonString(col, f.path);
  const bool = d.search.jsonBoolean(col, f.path);
  const rank: Frag = {
    sql: `CASE WHEN ${num.sql} IS NOT NULL THEN 0 WHEN ${str.sql} IS NOT NULL THEN 1 WHEN ${bool.sql} IS NOT NULL THEN 2 ELSE 3 END`,
    params: [...num.params, ...str.params, ...bool.params],
  };
  const missing: Frag = { sql: `CASE WHEN ${rank.sql} = 3 THEN 1 ELSE 0 END`, params: rank.params };
  return joinFrags(
    [
      missing,
      { sql: `${rank.sql} ${dir}`, params: rank.params },
      { sql: `${num.sql} ${dir}`, params: num.params },
      { sql: `${str.sql} ${d.binaryCollate} ${dir}`, params: str.params },
      { sql: `${bool.sql} ${dir}`, params: bool.params },
      { sql: `r.id ${dir}`, params: [] },
    ],
    ', ',
  );
}

/** The WHERE clause: the engine's row guard, organization, project, statuses, tags, name substring, filter. */
function whereOf(d: Dialect, q: RunSearchQuery): Frag {
  const parts: Frag[] = [
    { sql: `r.org_id = ? AND r.project_id = ? AND ${liveRun('r')}`, params: [q.orgId, q.projectId] },
  ];
  const guard = d.search.rowGuard?.('r.id');
  if (guard) parts.unshift({ sql: guard, params: [] });
  if (q.nameContains) parts.push(d.search.containsFolded('r.name', q.nameContains));
  if (q.filter) parts.push(compileFilter(d, q.filter));
  return joinFrags(parts, ' AND ');
}

/**
 * The ids of matching runs and how many match. With `page`, the page in `sort` order;
 * without, every matching id in ascending id order (the caller sorts and pages). Each read
 * is an ad-hoc read: off the event loop where the engine allows, stopped at the database's
 * query deadline (QUERY_TIMEOUT).
 */
export async function searchRuns(db: SqlDb, q: RunSearchQuery): Promise<{ ids: number[]; total: number }> {
  const where = whereOf(db.dialect, q);
  if (!q.page) {
    const rows = await db.allAdHoc<{ id: number }>(
      `SELECT r.id FROM runs r WHERE ${where.sql} ORDER BY r.id`,
      where.params,
    );
    return { ids: rows.map((r) => Number(r.id)), total: rows.length };
  }
  const order = orderBy(db.dialect, q.page.sort);
  const rows = await db.allAdHoc<{ id: number; total: number }>(
    `SELECT r.id, COUNT(*) OVER () AS total FROM runs r WHERE ${where.sql} ORDER BY ${order.sql} LIMIT ? OFFSET ?`,
    [...where.params, ...order.params, q.page.limit, q.page.offset],
  );
  if (rows.length > 0) return { ids: rows.map((r) => Number(r.id)), total: Number(rows[0]!.total) };
  if (q.page.offset === 0) return { ids: [], total: 0 };
  const counted = await db.allAdHoc<{ n: number }>(`SELECT COUNT(*) AS n FROM runs r WHERE ${where.sql}`, where.params);
  return { ids: [], total: Number(counted[0]?.n ?? 0) };
}
