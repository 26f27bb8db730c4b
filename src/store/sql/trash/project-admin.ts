/**
 * Renaming projects and runs, project retention, and the retention sweep's read.
 */

import { conflict, notFound } from '../../../errors.js';
import type { SqlDb } from '../db.js';
import { liveProject, liveRun } from '../runs/live-runs.js';

/**
 * Renames a live project of the organization; its id, prefix (so display ids), runs and
 * saved views stay. The old name is kept in `project_names` so old links find the project.
 * Throws NOT_FOUND for no such project, CONFLICT when another project (trashed ones
 * included) has the new name.
 */
export function renameProject(db: SqlDb, orgId: number, name: string, newName: string, at: number): Promise<void> {
  return db.transaction(async (tx) => {
    const project = await tx.get<{ id: number }>(
      `SELECT id FROM projects p WHERE org_id = ? AND name = ? AND ${liveProject('p')} ${db.dialect.forUpdate}`,
      [orgId, name],
    );
    if (!project) throw notFound(`project ${JSON.stringify(name)} not found`);
    if (name === newName) return;
    if (await tx.get('SELECT id FROM projects WHERE org_id = ? AND name = ?', [orgId, newName])) {
      throw conflict(`a project named ${JSON.stringify(newName)} exists`);
    }
    await tx.run('UPDATE projects SET name = ?, updated_at = ? WHERE id = ?', [newName, at, project.id]);
    await tx.run('DELETE FROM project_names WHERE org_id = ? AND name = ?', [orgId, newName]);
    await tx.run(
      `INSERT INTO project_names (org_id, name, project_id, renamed_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (org_id, name) DO UPDATE SET project_id = excluded.project_id, renamed_at = excluded.renamed_at`,
      [orgId, name, project.id, at],
    );
  });
}

/** The current name of the live project that had `oldName` before a rename, or undefined. */
export async function findRenamedProject(db: SqlDb, orgId: number, oldName: string): Promise<string | undefined> {
  const row = await db.get<{ name: string }>(
    `SELECT p.name FROM project_names n JOIN projects p ON p.id = n.project_id
     WHERE n.org_id = ? AND n.name = ? AND ${liveProject('p')}`,
    [orgId, oldName],
  );
  return row?.name;
}

/** Renames a live run of the organization. Throws NOT_FOUND. */
export async function renameRun(db: SqlDb, orgId: number, runId: number, name: string, at: number): Promise<void> {
  const changed = await db.run(
    `UPDATE runs SET name = ?, updated_at = ? WHERE id = ? AND org_id = ? AND ${liveRun('runs')}`,
    [name, at, runId, orgId],
  );
  if (changed !== 1) throw notFound(`run ${runId} not found`);
}

/** Sets (null: clears) a live project's retention in days. Throws NOT_FOUND. */
export async function setProjectRetention(
  db: SqlDb,
  orgId: number,
  name: string,
  retentionDays: number | null,
): Promise<void> {
  const changed = await db.run(
    `UPDATE projects SET retention_days = ? WHERE org_id = ? AND name = ? AND ${liveProject('projects')}`,
    [retentionDays, orgId, name],
  );
  if (changed !== 1) throw notFound(`project ${JSON.stringify(name)} not found`);
}

/** A live project's retention in days (null: none). Throws NOT_FOUND. */
export async function getProjectRetention(db: SqlDb, orgId: number, name: string): Promise<number | null> {
  const row = await db.get<{ retention_days: number | null }>(
    `SELECT retention_days FROM projects p WHERE org_id = ? AND name = ? AND ${liveProject('p')}`,
    [orgId, name],
  );
  if (!row) throw notFound(`project ${JSON.stringify(name)} not found`);
  return row.retention_days === null ? null : Number(row.retention_days);
}

/**
 * Live finished runs (never RUNNING) of live projects with a retention whose status last
 * changed (when they finished) more than the project's retention before `now`, at most
 * `limit`, the oldest first: what the retention sweep trashes.
 */
export async function listRetentionExpired(
  db: SqlDb,
  now: number,
  limit: number,
): Promise<{ orgId: number; runId: number }[]> {
  const rows = await db.all<{ id: number; org_id: number }>(
    `SELECT r.id, r.org_id FROM projects p JOIN runs r ON r.project_id = p.id
     WHERE p.retention_days IS NOT NULL AND ${liveProject('p')} AND ${liveRun('r')} AND r.status <> 'RUNNING'
       AND r.status_updated < CAST(? AS BIGINT) - p.retention_days * 86400000
     ORDER BY r.status_updated, r.id LIMIT ?`,
    [now, limit],
  );
  return rows.map((r) => ({ orgId: Number(r.org_id), runId: Number(r.id) }));
}
