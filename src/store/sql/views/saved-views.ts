/**
 * Saved views of the metadata store: one row per view, unique by (project, name); setting a
 * view as its project's default clears the others in the same transaction.
 */
import type { NewSavedView, SavedViewChange, SavedViewRecord } from '../../../domain/types.js';
import { conflict } from '../../../errors.js';
import type { SqlDb, SqlExecutor } from '../db.js';

interface SavedViewRow {
  id: number;
  project_id: number;
  project_name: string;
  name: string;
  state: string;
  is_default: number | boolean;
  created_by: string | null;
  created_at: number;
  updated_at: number;
}

const SELECT = `SELECT v.id, v.project_id, p.name AS project_name, v.name, v.state, v.is_default,
    u.name AS created_by, v.created_at, v.updated_at
  FROM saved_views v JOIN projects p ON p.id = v.project_id LEFT JOIN users u ON u.id = v.created_by`;

const toRecord = (r: SavedViewRow): SavedViewRecord => ({
  id: Number(r.id),
  projectId: Number(r.project_id),
  projectName: r.project_name,
  name: r.name,
  state: r.state,
  isDefault: Number(r.is_default) === 1,
  createdBy: r.created_by,
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

const nameTaken = (name: string): Error =>
  conflict(`a saved view named ${JSON.stringify(name)} already exists in this project; choose another name`);

async function findInOrg(tx: SqlExecutor, orgId: number, viewId: number): Promise<SavedViewRecord | undefined> {
  const row = await tx.get<SavedViewRow>(`${SELECT} WHERE v.id = ? AND p.org_id = ?`, [viewId, orgId]);
  return row && toRecord(row);
}

/** The project's saved views by name (the state left out: `state` is ''), default first. */
export async function listSavedViews(db: SqlDb, projectId: number): Promise<SavedViewRecord[]> {
  const rows = await db.all<SavedViewRow>(
    `${SELECT.replace('v.state', "'' AS state")} WHERE v.project_id = ? ORDER BY v.is_default DESC, v.name, v.id`,
    [projectId],
  );
  return rows.map(toRecord);
}

/** The saved view with its state when it belongs to a project of the organization. */
export function findSavedView(db: SqlDb, orgId: number, viewId: number): Promise<SavedViewRecord | undefined> {
  return findInOrg(db, orgId, viewId);
}

/** Number of saved views of a project. */
export async function countSavedViews(db: SqlDb, projectId: number): Promise<number> {
  const row = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM saved_views WHERE project_id = ?', [projectId]);
  return Number(row?.n ?? 0);
}

export async function createSavedView(db: SqlDb, v: NewSavedView): Promise<number> {
  return db.transaction(async (tx) => {
    if (v.isDefault) await tx.run('UPDATE saved_views SET is_default = 0 WHERE project_id = ?', [v.projectId]);
    const row = await tx.get<{ id: number }>(
      `INSERT INTO saved_views (project_id, name, state, is_default, created_by, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (project_id, name) DO NOTHING RETURNING id`,
      [v.projectId, v.name, v.state, v.isDefault ? 1 : 0, v.createdBy, v.at, v.at],
    );
    if (!row) throw nameTaken(v.name);
    return Number(row.id);
  });
}

/** Changes a view of the organization; false when there is none. */
export async function updateSavedView(db: SqlDb, orgId: number, viewId: number, c: SavedViewChange): Promise<boolean> {
  return db.transaction(async (tx) => {
    const view = await findInOrg(tx, orgId, viewId);
    if (!view) return false;
    if (c.name !== undefined && c.name !== view.name) {
      const taken = await tx.get('SELECT id FROM saved_views WHERE project_id = ? AND name = ?', [
        view.projectId,
        c.name,
      ]);
      if (taken) throw nameTaken(c.name);
    }
    if (c.isDefault) await tx.run('UPDATE saved_views SET is_default = 0 WHERE project_id = ?', [view.projectId]);
    await tx.run('UPDATE saved_views SET name = ?, state = ?, is_default = ?, updated_at = ? WHERE id = ?', [
      c.name ?? view.name,
      c.state ?? view.state,
      (c.isDefault ?? view.isDefault) ? 1 : 0,
      c.at,
      viewId,
    ]);
    return true;
  });
}

/** Deletes a view of the organization; false when there is none. */
export async function deleteSavedView(db: SqlDb, orgId: number, viewId: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await findInOrg(tx, orgId, viewId))) return false;
    await tx.run('DELETE FROM saved_views WHERE id = ?', [viewId]);
    return true;
  });
}
