/**
 * Run search's reads of metric last values over a project, from the stored summaries
 * through the covering index series_project_last (migration 006): index ranges only, no
 * table rows. A condition reads the runs it matches; a sort walks the index in order.
 */
import type { Condition } from '../../../domain/run-search.js';
import type { SqlDb } from '../db.js';
import type { SqlValue } from '../sql-value.js';

const CMP = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

/** The condition on `last_value` (a finite number), or undefined when no number satisfies it. */
function valueCondition(cond: Condition): { sql: string; params: SqlValue[] } | undefined {
  switch (cond.op) {
    case 'exists':
      return { sql: '1 = 1', params: [] };
    case 'regex':
      return undefined;
    case 'eq':
    case 'in': {
      const numbers = (cond.op === 'eq' ? [cond.value] : cond.values).filter((v) => typeof v === 'number');
      if (numbers.length === 0) return undefined;
      return { sql: `last_value IN (${numbers.map(() => '?').join(', ')})`, params: numbers };
    }
    default:
      return typeof cond.value === 'number' ? { sql: `last_value ${CMP[cond.op]} ?`, params: [cond.value] } : undefined;
  }
}

/**
 * Ids of a project's runs whose metric has a last finite value (own points) that satisfies
 * `cond`, or with `negate`, that does not. Any order.
 */
export async function projectRunsByLastValue(
  db: SqlDb,
  projectId: number,
  logName: string,
  cond: Condition,
  negate: boolean,
): Promise<number[]> {
  const where = valueCondition(cond);
  if (!where && !negate) return [];
  const test = !where ? '' : ` AND ${negate ? 'NOT ' : ''}(${where.sql})`;
  const rows = await db.allAdHoc<{ run_id: number }>(
    `SELECT run_id FROM series WHERE project_id = ? AND log_name = ? AND last_value IS NOT NULL${test}`,
    [projectId, logName, ...(where?.params ?? [])],
  );
  return rows.map((r) => Number(r.run_id));
}

/**
 * A page of [runId, last finite value] of one metric over a project's runs that have one
 * (own points), ordered by value then run id, both ascending or both descending.
 */
export async function projectLastValues(
  db: SqlDb,
  projectId: number,
  logName: string,
  descending: boolean,
  limit: number,
  offset: number,
): Promise<[number, number][]> {
  const dir = descending ? 'DESC' : 'ASC';
  const rows = await db.all<{ run_id: number; v: number }>(
    `SELECT run_id, last_value AS v FROM series WHERE project_id = ? AND log_name = ? AND last_value IS NOT NULL
     ORDER BY last_value ${dir}, run_id ${dir} LIMIT ? OFFSET ?`,
    [projectId, logName, limit, offset],
  );
  return rows.map((r) => [Number(r.run_id), Number(r.v)]);
}
