/**
 * Run search's reads of one metric's summary values over a project, from the stored
 * summaries (own points only). The last value is read through the covering index
 * series_project_last (migration 006): index ranges only, no table rows. Min, max and mean
 * read the metric's rows through series_project_name and sort them (one row per run).
 * A condition reads the runs it matches; a sort walks the values in order.
 */
import type { Condition, MetricAgg } from '../../../domain/run-search.js';
import type { SqlDb } from '../db.js';
import type { SqlValue } from '../sql-value.js';

const CMP = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

/**
 * Each summary as a column expression and the test that it holds a finite value. Min and
 * max are of finite values (NULL without one); a mean may have overflowed to ±Infinity or
 * NaN (NULL on SQLite), which counts as none: `?` is bound to the largest double.
 */
const VALUES: Record<MetricAgg, { expr: string; has: string; params: SqlValue[] }> = {
  last: { expr: 'last_value', has: 'last_value IS NOT NULL', params: [] },
  min: { expr: 'min_value', has: 'count > 0 AND min_value IS NOT NULL', params: [] },
  max: { expr: 'max_value', has: 'count > 0 AND max_value IS NOT NULL', params: [] },
  mean: { expr: '(mean + mean_lo)', has: 'count > 0 AND ABS(mean + mean_lo) <= ?', params: [Number.MAX_VALUE] },
};

/** The condition on the value `expr` (a finite number), or undefined when no number satisfies it. */
function valueCondition(expr: string, cond: Condition): { sql: string; params: SqlValue[] } | undefined {
  switch (cond.op) {
    case 'exists':
      return { sql: '1 = 1', params: [] };
    case 'regex':
      return undefined;
    case 'eq':
    case 'in': {
      const numbers = (cond.op === 'eq' ? [cond.value] : cond.values).filter((v) => typeof v === 'number');
      if (numbers.length === 0) return undefined;
      return { sql: `${expr} IN (${numbers.map(() => '?').join(', ')})`, params: numbers };
    }
    default:
      return typeof cond.value === 'number' ? { sql: `${expr} ${CMP[cond.op]} ?`, params: [cond.value] } : undefined;
  }
}

/**
 * Ids of a project's runs whose metric has a finite `agg` value (own points) that satisfies
 * `cond`, or with `negate`, that does not. Any order.
 */
export async function projectRunsByValue(
  db: SqlDb,
  projectId: number,
  logName: string,
  agg: MetricAgg,
  cond: Condition,
  negate: boolean,
): Promise<number[]> {
  const value = VALUES[agg];
  const where = valueCondition(value.expr, cond);
  if (!where && !negate) return [];
  const test = !where ? '' : ` AND ${negate ? 'NOT ' : ''}(${where.sql})`;
  const rows = await db.allAdHoc<{ run_id: number }>(
    `SELECT run_id FROM series WHERE project_id = ? AND log_name = ? AND ${value.has}${test}`,
    [projectId, logName, ...value.params, ...(where?.params ?? [])],
  );
  return rows.map((r) => Number(r.run_id));
}

/**
 * A page of [runId, finite `agg` value] of one metric (own points) over a project's runs
 * that have one, ordered by value then run id, both ascending or both descending.
 */
export async function projectValues(
  db: SqlDb,
  projectId: number,
  logName: string,
  agg: MetricAgg,
  descending: boolean,
  limit: number,
  offset: number,
): Promise<[number, number][]> {
  const dir = descending ? 'DESC' : 'ASC';
  const value = VALUES[agg];
  const rows = await db.all<{ run_id: number; v: number }>(
    `SELECT run_id, ${value.expr} AS v FROM series WHERE project_id = ? AND log_name = ? AND ${value.has}
     ORDER BY ${value.expr} ${dir}, run_id ${dir} LIMIT ? OFFSET ?`,
    [projectId, logName, ...value.params, limit, offset],
  );
  return rows.map((r) => [Number(r.run_id), Number(r.v)]);
}
