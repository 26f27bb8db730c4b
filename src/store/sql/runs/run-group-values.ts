/**
 * What runs are grouped by (GET /api/runs/groups): each run's status, tags, fork parent and
 * the JSON texts of the asked config / system metadata paths, extracted by the database.
 */
import type { GroupValueRow, JsonPick } from '../../metadata-store.js';
import type { SqlDb } from '../db.js';
import type { SqlValue } from '../sql-value.js';
import { chunks, IN_CHUNK } from '../util.js';

const COLUMN = { config: 'config', systemMetadata: 'system_metadata' } as const;

export async function listGroupValues(
  db: SqlDb,
  orgId: number,
  runIds: readonly number[],
  picks: readonly JsonPick[],
): Promise<GroupValueRow[]> {
  const frags = picks.map((p) => db.dialect.search.jsonText(COLUMN[p.field], p.path));
  const columns = ['id', 'status', 'tags', 'forked_from_run_id', ...frags.map((f, i) => `${f.sql} AS k${i}`)].join(
    ', ',
  );
  const out: GroupValueRow[] = [];
  for (const ids of chunks([...runIds], IN_CHUNK)) {
    const params: SqlValue[] = [...frags.flatMap((f) => f.params), orgId, ...ids];
    // Extracting paths parses every config: a cost the client chooses, off the event loop under the deadline.
    const rows = await db.allAdHoc<Record<string, string | number | null>>(
      // `+org_id`: the ids are found by primary key, not by a walk of the organization's runs.
      `SELECT ${columns} FROM runs WHERE +org_id = ? AND id IN (${ids.map(() => '?').join(', ')})`,
      params,
    );
    for (const row of rows) {
      out.push({
        runId: Number(row.id),
        status: String(row.status),
        tags: JSON.parse(String(row.tags)) as string[],
        forkedFromRunId: row.forked_from_run_id === null ? null : Number(row.forked_from_run_id),
        texts: picks.map((_, i) => (row[`k${i}`] ?? null) as string | null),
      });
    }
  }
  return out;
}
