/**
 * Run reads for answers whose size a client controls (runs/list, runs/details): first the runs
 * without their JSON fields but with those fields' byte lengths, then the fields as stored
 * JSON text (never parsed into objects here), whole or only some keys of the config.
 */
import { pickedConfigText } from '../../../domain/config-keys.js';
import type { RunHead, RunJsonTexts } from '../../../domain/types.js';
import type { RunHeadRef } from '../../metadata-store.js';
import type { SqlDb } from '../db.js';
import type { SqlValue } from '../sql-value.js';
import { RUN_FROM, RUN_HEAD_COLUMNS, type RunHeadRow, toRunHead } from './run-row.js';
import { liveRun } from './live-runs.js';

export async function listRunHeads(db: SqlDb, orgId: number, runIds: readonly number[]): Promise<RunHead[]> {
  if (runIds.length === 0) return [];
  // A page of runs with large configs costs SQLite a walk of each config's overflow pages to
  // reach the columns stored after it (about 200 ms for 60 runs of 8 MB): off the event loop.
  // `+r.org_id`: the organization's indexes are no candidate, so the ids are found by primary
  // key (SQLite otherwise walked every run of the organization: 1.9 vs 0.6 ms for 100 of 20,000).
  const rows = await db.allAdHoc<RunHeadRow>(
    `SELECT ${RUN_HEAD_COLUMNS} FROM ${RUN_FROM} WHERE +r.org_id = ? AND r.id IN (${runIds.map(() => '?').join(', ')})`,
    [orgId, ...runIds],
  );
  const byId = new Map(rows.map((r) => [Number(r.id), toRunHead(r)]));
  return runIds.flatMap((id) => byId.get(id) ?? []);
}

export async function findRunHead(db: SqlDb, orgId: number, ref: RunHeadRef): Promise<RunHead | undefined> {
  const row =
    'runId' in ref
      ? await db.get<RunHeadRow>(`SELECT ${RUN_HEAD_COLUMNS} FROM ${RUN_FROM} WHERE r.org_id = ? AND r.id = ?`, [
          orgId,
          ref.runId,
        ])
      : await db.get<RunHeadRow>(
          `SELECT ${RUN_HEAD_COLUMNS} FROM ${RUN_FROM} WHERE p.org_id = ? AND p.prefix = ? AND r.number = ?`,
          [orgId, ref.prefix, ref.number],
        );
  return row && toRunHead(row);
}

export async function listConfigTexts(
  db: SqlDb,
  orgId: number,
  runIds: readonly number[],
  paths: readonly string[][] | undefined,
): Promise<Map<number, string | null>> {
  if (runIds.length === 0) return new Map();
  // `+org_id`: the ids are found by primary key (as in listRunHeads).
  const where = `FROM runs WHERE ${liveRun('runs')} AND +org_id = ? AND id IN (${runIds.map(() => '?').join(', ')})`;
  if (paths === undefined) {
    const rows = await db.allArrays<[number, string | null]>(`SELECT id, config ${where}`, [orgId, ...runIds]);
    return new Map(rows.map(([id, text]) => [Number(id), text]));
  }
  const picks = paths.map((path) => db.dialect.search.jsonText('config', path));
  const params: SqlValue[] = [...picks.flatMap((p) => p.params), orgId, ...runIds];
  const columns = ['id', 'config IS NULL AS unset', ...picks.map((p, i) => `${p.sql} AS k${i}`)].join(', ');
  // Picking keys parses every config in the database (about 530 ms for 60 runs of 8 MB): a
  // cost the client chooses, so it runs off the event loop under the query deadline.
  const rows = await db.allAdHoc<Record<string, number | boolean | string | null>>(
    `SELECT ${columns} ${where}`,
    params,
  );
  return new Map(
    rows.map((row) => [
      Number(row.id),
      row.unset === 1 || row.unset === true
        ? null
        : pickedConfigText(
            paths,
            paths.map((_, i) => row[`k${i}`] as string | null),
          ),
    ]),
  );
}

export async function findRunJsonTexts(db: SqlDb, orgId: number, runId: number): Promise<RunJsonTexts | undefined> {
  const row = await db.get<Record<'config' | 'system_metadata' | 'logger_settings' | 'status_metadata', string | null>>(
    `SELECT config, system_metadata, logger_settings, status_metadata FROM runs WHERE org_id = ? AND id = ? AND ${liveRun('runs')}`,
    [orgId, runId],
  );
  return (
    row && {
      config: row.config,
      systemMetadata: row.system_metadata,
      loggerSettings: row.logger_settings,
      statusMetadata: row.status_metadata,
    }
  );
}
