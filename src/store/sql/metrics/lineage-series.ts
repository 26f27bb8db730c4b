/**
 * Resolving a fork lineage into, per metric name, the series whose own points it can see.
 */
import { keyedByTime } from '../../../domain/time-keyed.js';
import type { LineageLink } from '../../../domain/types.js';
import { TimeSlice } from '../../../time-slice.js';
import type { MetricQuery } from '../../series-store.js';
import type { SqlDb } from '../db.js';
import type { PointSource } from './effective-points.js';
import { clampStep, SERIES_COLUMNS, seriesRows, seriesRowsMany, type SeriesRow } from './series-row.js';
import { chunks, compareCodePoints, IN_CHUNK } from '../util.js';

/** A metric as seen through a lineage: its visible series, earliest link first. */
export interface LineageMetric {
  logName: string;
  logGroup: string;
  sources: (PointSource & { row: SeriesRow })[];
}

/** Filters of lineageMetrics: exact names and/or an exact group. */
export interface MetricFilter {
  logNames?: readonly string[];
  logGroup?: string;
}

/**
 * Returns each link's visible step bound: the running minimum of the links' maxStep, clamped
 * to a bindable integer. The order is the lineage's.
 */
export function visibleBounds(lineage: readonly LineageLink[]): { runId: number; maxStep: number }[] {
  let bound = Infinity;
  return lineage.map((link) => {
    bound = Math.min(bound, link.maxStep);
    return { runId: link.runId, maxStep: clampStep(bound) };
  });
}

/** Where each run of a lineage sits (its first position) and its visible step bound. */
interface LinkIndex {
  links: { runId: number; maxStep: number }[];
  position: Map<number, number>;
  runIds: number[];
}

function indexLinks(lineage: readonly LineageLink[]): LinkIndex {
  const links = visibleBounds(lineage);
  const position = new Map<number, number>();
  links.forEach((l, i) => {
    if (!position.has(l.runId)) position.set(l.runId, i);
  });
  return { links, position, runIds: [...position.keys()] };
}

/** The series query of a lineage's runs with the filter's group (names are added by the caller). */
function seriesQuery(index: LinkIndex, logGroup: string | undefined): { sql: string; params: (string | number)[] } {
  const params: (string | number)[] = [...index.runIds];
  let sql = `SELECT ${SERIES_COLUMNS} FROM series WHERE run_id IN (${index.runIds.map(() => '?').join(', ')})`;
  if (logGroup !== undefined) {
    sql += ' AND log_group = ?';
    params.push(logGroup);
  }
  return { sql, params };
}

/** Groups series rows into metrics with at least one visible point, sorted by logName (code point order). */
function groupRows(index: LinkIndex, rows: readonly SeriesRow[]): LineageMetric[] {
  const byName = new Map<string, LineageMetric>();
  const sorted = rows
    .map((row) => ({ row, at: index.position.get(Number(row.run_id)) ?? 0 }))
    .sort((a, b) => a.at - b.at);
  for (const { row, at } of sorted) {
    const maxStep = index.links[at]?.maxStep ?? -Infinity;
    if (row.first_step === null || Number(row.first_step) > maxStep) continue;
    let metric = byName.get(row.log_name);
    if (!metric) {
      metric = { logName: row.log_name, logGroup: row.log_group, sources: [] };
      byName.set(row.log_name, metric);
    }
    metric.sources.push({ seriesId: Number(row.id), maxStep, byTime: keyedByTime(row.log_name), row });
  }
  return [...byName.values()].sort((a, b) => compareCodePoints(a.logName, b.logName));
}

/**
 * Returns the metrics of a lineage that have at least one visible point, sorted by logName
 * (code point order), each with its visible series in lineage order (a run listed twice
 * counts once, at its first position).
 */
export async function lineageMetrics(
  db: SqlDb,
  lineage: readonly LineageLink[],
  filter: MetricFilter = {},
): Promise<LineageMetric[]> {
  const index = indexLinks(lineage);
  if (index.runIds.length === 0 || filter.logNames?.length === 0) return [];
  const nameLists = filter.logNames ? chunks([...new Set(filter.logNames)], IN_CHUNK) : [null];
  const rows: SeriesRow[] = [];
  for (const names of nameLists) {
    let { sql, params } = seriesQuery(index, filter.logGroup);
    if (names) {
      sql += ` AND log_name IN (${names.map(() => '?').join(', ')})`;
      params = [...params, ...names];
    }
    rows.push(...(await seriesRows(db, sql, params)));
  }
  return groupRows(index, rows);
}

/**
 * Series rows read by one query of lineageMetricPages. Each query sorts the lineage's rows
 * by name, so fewer, larger pages cost less; on PostgreSQL a page comes in binary
 * (readMany): 2,000 rows are parsed in about the time 500 took as text.
 */
export const METRIC_PAGE_ROWS = 2000;

/**
 * Yields the metrics lineageMetrics returns, in the same order, in pages read by queries of
 * at most `pageRows` series rows (ordered by logName in binary order, which is code point
 * order), so that no single query or loop grows with the number of metrics. A page may be
 * empty. Named metrics (`filter.logNames`) come in one page.
 */
export async function* lineageMetricPages(
  db: SqlDb,
  lineage: readonly LineageLink[],
  filter: MetricFilter = {},
  pageRows = METRIC_PAGE_ROWS,
): AsyncGenerator<LineageMetric[]> {
  const index = indexLinks(lineage);
  if (filter.logNames || index.runIds.length === 0) {
    yield await lineageMetrics(db, lineage, filter);
    return;
  }
  // A page must hold more rows than one name can have (one per run), so it always ends
  // with at least one complete name.
  const limit = Math.max(pageRows, index.runIds.length + 1);
  let from: SeriesRow | null = null;
  for (;;) {
    const rows = await seriesPage(db, index, filter.logGroup, from, limit);
    if (rows.length < limit) {
      yield groupRows(index, rows);
      return;
    }
    // The last name may continue on the next page: it starts the next query instead.
    from = rows[rows.length - 1]!;
    const name = from.log_name;
    yield groupRows(
      index,
      rows.filter((r) => r.log_name !== name),
    );
  }
}

/**
 * A page of lineageMetricPages: at most `limit` series rows by logName (binary order) from
 * the name of row `from` on. Through SqlDb.readMany where the engine has it and the read
 * takes integers only (no group): from `from`'s row by its id. That row is on the page it
 * starts, so an empty page means it is gone: the page is read again by its name.
 */
async function seriesPage(
  db: SqlDb,
  index: LinkIndex,
  logGroup: string | undefined,
  from: SeriesRow | null,
  limit: number,
): Promise<SeriesRow[]> {
  const c = db.dialect.binaryCollate;
  let { sql, params } = seriesQuery(index, logGroup);
  if (db.readMany && logGroup === undefined) {
    const after = from === null ? '' : ` AND log_name ${c} >= (SELECT log_name FROM series WHERE id = ?)`;
    const ids = from === null ? [] : [Number(from.id)];
    const rows = await seriesRowsMany(db, `${sql}${after} ORDER BY log_name ${c} LIMIT ?`, [
      ...index.runIds,
      ...ids,
      limit,
    ]);
    if (rows.length > 0 || from === null) return rows;
  }
  if (from !== null) {
    sql += ` AND log_name ${c} >= ?`;
    params = [...params, from.log_name];
  }
  return seriesRows(db, `${sql} ORDER BY log_name ${c} LIMIT ?`, [...params, limit]);
}

/**
 * Yields the metrics a metrics read asks for (its logNames and logGroup filters), as
 * lineageMetricPages orders them, one at a time, yielding to the event loop between them.
 */
export async function* queriedMetrics(
  db: SqlDb,
  lineage: readonly LineageLink[],
  q: Pick<MetricQuery, 'logNames' | 'logGroup'>,
): AsyncGenerator<LineageMetric> {
  const filter = {
    ...(q.logNames ? { logNames: q.logNames } : {}),
    ...(q.logGroup !== undefined ? { logGroup: q.logGroup } : {}),
  };
  const slice = new TimeSlice();
  for await (const metrics of lineageMetricPages(db, lineage, filter)) {
    for (const metric of metrics) {
      await slice.tick();
      yield metric;
    }
  }
}
