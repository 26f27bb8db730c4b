/**
 * Run reads of the SQL metadata store: by ids, by project page, by display id or external
 * id, and the forked runs of a project.
 */
import type { Run, RunStatus, RunTarget } from '../../../domain/types.js';
import { notFound } from '../../../errors.js';
import type { SqlDb } from '../db.js';
import { findRunInTx } from './run-create.js';
import { RUN_COLUMNS, RUN_FROM, type RunRow, toRun } from './run-row.js';
import { liveRun } from './live-runs.js';

export async function listForkedRunIds(db: SqlDb, projectId: number): Promise<number[]> {
  const rows = await db.all<{ id: number }>(
    `SELECT id FROM runs WHERE project_id = ? AND forked_from_run_id IS NOT NULL AND ${liveRun('runs')} ORDER BY id`,
    [projectId],
  );
  return rows.map((r) => Number(r.id));
}

export async function listRunsByIds(db: SqlDb, orgId: number, runIds: readonly number[]): Promise<Run[]> {
  if (runIds.length === 0) return [];
  const marks = runIds.map(() => '?').join(', ');
  // `+r.org_id`: the ids are found by primary key, not by a walk of the organization's runs.
  const rows = await db.all<RunRow>(
    `SELECT ${RUN_COLUMNS} FROM ${RUN_FROM} WHERE +r.org_id = ? AND r.id IN (${marks})`,
    [orgId, ...runIds],
  );
  const byId = new Map(rows.map((r) => [Number(r.id), toRun(r)]));
  return runIds.flatMap((id) => byId.get(id) ?? []);
}

export async function listProjectRuns(
  db: SqlDb,
  orgId: number,
  projectName: string,
  limit: number,
  offset: number,
): Promise<Run[]> {
  const rows = await db.all<RunRow>(
    `SELECT ${RUN_COLUMNS} FROM ${RUN_FROM} WHERE p.org_id = ? AND p.name = ? ORDER BY r.id DESC LIMIT ? OFFSET ?`,
    [orgId, projectName, limit, offset],
  );
  return rows.map(toRun);
}

export async function findRunByDisplayId(
  db: SqlDb,
  orgId: number,
  prefix: string,
  number: number,
  projectName?: string,
): Promise<Run | undefined> {
  const row = await db.get<RunRow>(
    `SELECT ${RUN_COLUMNS} FROM ${RUN_FROM} WHERE p.org_id = ? AND p.prefix = ? AND r.number = ?`,
    [orgId, prefix, number],
  );
  if (!row || (projectName !== undefined && row.project_name !== projectName)) return undefined;
  return toRun(row);
}

export async function findRunByExternalId(
  db: SqlDb,
  orgId: number,
  projectName: string,
  externalId: string,
): Promise<Run | undefined> {
  const row = await db.get<RunRow>(
    `SELECT ${RUN_COLUMNS} FROM ${RUN_FROM} WHERE p.org_id = ? AND p.name = ? AND r.external_id = ?`,
    [orgId, projectName, externalId],
  );
  return row && toRun(row);
}

/** The ids, project and status of an organization's run (no JSON field read), or undefined. */
export async function findRunTarget(db: SqlDb, orgId: number, runId: number): Promise<RunTarget | undefined> {
  const row = await db.get<{ id: number; org_id: number; project_id: number; project_name: string; status: string }>(
    `SELECT r.id, r.org_id, r.project_id, p.name AS project_name, r.status FROM ${RUN_FROM} WHERE r.id = ? AND r.org_id = ?`,
    [runId, orgId],
  );
  return (
    row && {
      id: Number(row.id),
      orgId: Number(row.org_id),
      projectId: Number(row.project_id),
      projectName: row.project_name,
      status: row.status as RunStatus,
    }
  );
}

/** An organization's run; throws NOT_FOUND when it has none of that id. */
export async function getRun(db: SqlDb, orgId: number, runId: number): Promise<Run> {
  const run = await findRunInTx(db, orgId, runId);
  if (!run) throw notFound(`run ${runId} not found`);
  return run;
}

/** The ids, project and status of an organization's run; throws NOT_FOUND when it has none of that id. */
export async function getRunTarget(db: SqlDb, orgId: number, runId: number): Promise<RunTarget> {
  const target = await findRunTarget(db, orgId, runId);
  if (!target) throw notFound(`run ${runId} not found`);
  return target;
}
