/**
 * Project-wide metric reads: the stored summaries of one metric across runs, and the
 * distinct metric names of a project or of some runs.
 */
import type { SeriesSummary } from '../../../domain/types.js';
import type { SqlDb } from '../db.js';
import { chunks, compareCodePoints, IN_CHUNK } from '../util.js';
import { rowState, SERIES_COLUMNS, stateSummary, type SeriesRow } from './series-row.js';

/** Names are scanned in pages of this many when a search filters them. */
const NAME_PAGE = 1000;

/** Returns the stored summaries (own points only) of one metric for every run of a project, any order. */
export async function projectSummaries(db: SqlDb, projectId: number, logName: string): Promise<SeriesSummary[]> {
  const rows = await db.all<SeriesRow>(
    `SELECT ${SERIES_COLUMNS} FROM series WHERE project_id = ? AND log_name = ? AND points > 0`,
    [projectId, logName],
  );
  return rows.map((r) => stateSummary(Number(r.run_id), r.log_name, r.log_group, rowState(r)));
}

/** Returns a predicate for a case-insensitive substring search (every character literal). */
function matcher(search: string | null): (name: string) => boolean {
  if (search === null || search === '') return () => true;
  const needle = search.toLowerCase();
  return (name) => name.toLowerCase().includes(needle);
}

/** Distinct names of some runs' series (all of them, scoped by run id in chunks). */
async function namesOfRuns(db: SqlDb, projectId: number, runIds: readonly number[]): Promise<string[]> {
  const names = new Set<string>();
  for (const part of chunks([...new Set(runIds)], IN_CHUNK)) {
    const rows = await db.all<{ log_name: string }>(
      `SELECT log_name FROM series WHERE project_id = ? AND run_id IN (${part.map(() => '?').join(', ')}) GROUP BY log_name`,
      [projectId, ...part],
    );
    for (const r of rows) names.add(r.log_name);
  }
  return [...names].sort(compareCodePoints);
}

/**
 * Returns up to `limit` distinct metric names of a project (or of the given runs only),
 * in code point order, containing `search` case-insensitively (`%` and `_` are literal).
 */
export async function metricNames(
  db: SqlDb,
  projectId: number,
  runIds: readonly number[] | null,
  search: string | null,
  limit: number,
): Promise<string[]> {
  const matches = matcher(search);
  if (limit <= 0) return [];
  if (runIds !== null) return (await namesOfRuns(db, projectId, runIds)).filter(matches).slice(0, limit);
  const c = db.dialect.binaryCollate;
  const out: string[] = [];
  let after: string | null = null;
  for (;;) {
    const page = search ? NAME_PAGE : limit - out.length;
    const rows: { log_name: string }[] = await db.all<{ log_name: string }>(
      `SELECT log_name FROM series WHERE project_id = ?${after === null ? '' : ` AND log_name ${c} > ?`}
       GROUP BY log_name ORDER BY log_name ${c} LIMIT ?`,
      after === null ? [projectId, page] : [projectId, after, page],
    );
    for (const r of rows) {
      if (matches(r.log_name)) out.push(r.log_name);
      if (out.length >= limit) return out;
    }
    const last = rows[rows.length - 1];
    if (last === undefined || rows.length < page) return out;
    after = last.log_name;
  }
}
