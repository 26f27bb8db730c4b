/**
 * The trash of the SQL metadata store: moving runs in (a run, many, or a project's), out
 * again, and listing it. A trashed run keeps every row; only `deleted_at` is set, and every
 * read for an answer leaves it out (../runs/live-runs.ts).
 */
import type { MovedRun, TrashKey, TrashedRun } from '../../../domain/types.js';
import { notFound } from '../../../errors.js';
import type { SqlDb, SqlExecutor } from '../db.js';
import { appendRunEventsInTx } from '../events/append-event.js';
import { liveProject } from '../runs/live-runs.js';
import { countMovedRuns } from '../runs/project-run-count.js';
import { ANY_RUN_FROM, RUN_HEAD_COLUMNS, type RunHeadRow, toRunHead } from '../runs/run-row.js';
import { chunks, IN_CHUNK } from '../util.js';

/** Rows of the org's runs among `runIds` that satisfy `state`; NOT_FOUND naming the first id that does not. */
async function requireRuns(
  tx: SqlExecutor,
  orgId: number,
  runIds: readonly number[],
  state: string,
  lock: string,
): Promise<MovedRun[]> {
  const ids = [...new Set(runIds)];
  const marks = ids.map(() => '?').join(', ');
  const rows = await tx.all<{ id: number; project_id: number }>(
    `SELECT id, project_id FROM runs WHERE org_id = ? AND id IN (${marks}) AND ${state} ${lock}`,
    [orgId, ...ids],
  );
  if (rows.length !== ids.length) {
    const found = new Set(rows.map((r) => Number(r.id)));
    throw notFound(`run ${ids.find((id) => !found.has(id))} not found`);
  }
  return rows.map((r) => ({ runId: Number(r.id), projectId: Number(r.project_id) }));
}

/** Appends a `run.deleted` event for each run moved to the trash, in the moving transaction. */
function appendDeleted(tx: SqlExecutor, orgId: number, moved: readonly MovedRun[], at: number): Promise<void> {
  return appendRunEventsInTx(
    tx,
    orgId,
    moved.map((m) => m.runId),
    'run.deleted',
    at,
  );
}

/**
 * Moves live runs of the organization (at most a few thousand ids) to the trash at `at`, in
 * one transaction; throws NOT_FOUND, changing nothing, when one is unknown, foreign or
 * already trashed. Returns the runs moved.
 */
export function trashRuns(db: SqlDb, orgId: number, runIds: readonly number[], at: number): Promise<MovedRun[]> {
  return db.transaction(async (tx) => {
    const moved = await requireRuns(tx, orgId, runIds, 'deleted_at IS NULL', db.dialect.forUpdate);
    const marks = moved.map(() => '?').join(', ');
    await tx.run(`UPDATE runs SET deleted_at = ? WHERE id IN (${marks})`, [at, ...moved.map((m) => m.runId)]);
    await countMovedRuns(tx, moved, -1);
    await appendDeleted(tx, orgId, moved, at);
    return moved;
  });
}

/** Who created each of the organization's unpurged runs among `runIds` (trashed or not). */
export async function listRunCreators(
  db: SqlDb,
  orgId: number,
  runIds: readonly number[],
): Promise<Map<number, number | null>> {
  const ids = [...new Set(runIds)];
  if (ids.length === 0) return new Map();
  const rows = await db.all<{ id: number; created_by: number | null }>(
    `SELECT id, created_by FROM runs WHERE org_id = ? AND purged_at IS NULL AND id IN (${ids.map(() => '?').join(', ')})`,
    [orgId, ...ids],
  );
  return new Map(rows.map((r) => [Number(r.id), r.created_by === null ? null : Number(r.created_by)]));
}

/**
 * Brings trashed (not purged) runs of the organization back as they were, with their
 * projects when those were trashed too; throws NOT_FOUND, changing nothing, when one is not
 * in the trash. Returns the runs restored.
 */
export function restoreRuns(db: SqlDb, orgId: number, runIds: readonly number[]): Promise<MovedRun[]> {
  return db.transaction(async (tx) => {
    const state = 'deleted_at IS NOT NULL AND purged_at IS NULL';
    const moved = await requireRuns(tx, orgId, runIds, state, db.dialect.forUpdate);
    const marks = moved.map(() => '?').join(', ');
    await tx.run(
      `UPDATE runs SET deleted_at = NULL WHERE id IN (${marks})`,
      moved.map((m) => m.runId),
    );
    await countMovedRuns(tx, moved, 1);
    const projects = [...new Set(moved.map((m) => m.projectId))];
    await tx.run(`UPDATE projects SET deleted_at = NULL WHERE id IN (${projects.map(() => '?').join(', ')})`, projects);
    return moved;
  });
}

/**
 * Moves a live project of the organization and all its live runs to the trash at `at`;
 * throws NOT_FOUND for no such live project. Returns the runs moved.
 */
export function trashProject(db: SqlDb, orgId: number, name: string, at: number): Promise<MovedRun[]> {
  return db.transaction(async (tx) => {
    const project = await tx.get<{ id: number }>(
      `SELECT id FROM projects p WHERE org_id = ? AND name = ? AND ${liveProject('p')} ${db.dialect.forUpdate}`,
      [orgId, name],
    );
    if (!project) throw notFound(`project ${JSON.stringify(name)} not found`);
    const projectId = Number(project.id);
    const ids = await tx.column<number>('SELECT id FROM runs WHERE project_id = ? AND deleted_at IS NULL', [projectId]);
    await tx.run('UPDATE runs SET deleted_at = ? WHERE project_id = ? AND deleted_at IS NULL', [at, projectId]);
    await tx.run('UPDATE projects SET deleted_at = ?, run_count = 0 WHERE id = ?', [at, projectId]);
    const moved = ids.map((id) => ({ runId: Number(id), projectId }));
    await appendDeleted(tx, orgId, moved, at);
    return moved;
  });
}

/**
 * The trashed (not yet purged) runs of the organization's project of that name (trashed
 * itself or not), the latest trashed first, then by id descending; a page.
 */
export async function listTrash(
  db: SqlDb,
  orgId: number,
  projectName: string,
  limit: number,
  offset: number,
): Promise<TrashedRun[]> {
  const rows = await db.all<RunHeadRow & { deleted_at: number }>(
    `SELECT ${RUN_HEAD_COLUMNS}, r.deleted_at FROM ${ANY_RUN_FROM}
     WHERE p.org_id = ? AND p.name = ? AND r.deleted_at IS NOT NULL AND r.purged_at IS NULL
     ORDER BY r.deleted_at DESC, r.id DESC LIMIT ? OFFSET ?`,
    [orgId, projectName, limit, offset],
  );
  return rows.map((r) => {
    const { configBytes: _c, jsonBytes: _j, ...head } = toRunHead(r);
    return { ...head, deletedAt: Number(r.deleted_at) };
  });
}

/**
 * Trashed runs (of every organization) trashed before `before` and not purged yet, the
 * oldest first, at most `limit`: what the trash sweep purges. Reads the trash index.
 */
export function listExpiredTrash(
  db: SqlDb,
  before: number,
  limit: number,
): Promise<{ orgId: number; runId: number }[]> {
  return db
    .all<{ id: number; org_id: number }>(
      `SELECT id, org_id FROM runs WHERE deleted_at IS NOT NULL AND deleted_at < ? AND purged_at IS NULL
       ORDER BY deleted_at, id LIMIT ?`,
      [before, limit],
    )
    .then((rows) => rows.map((r) => ({ orgId: Number(r.org_id), runId: Number(r.id) })));
}

/** Those of `runIds` that are the organization's trashed, unpurged runs, in ascending id order. */
export async function listTrashedIds(db: SqlDb, orgId: number, runIds: readonly number[]): Promise<number[]> {
  if (runIds.length === 0) return [];
  const ids = await db.column<number>(
    `SELECT id FROM runs WHERE org_id = ? AND id IN (${runIds.map(() => '?').join(', ')})
     AND deleted_at IS NOT NULL AND purged_at IS NULL ORDER BY id`,
    [orgId, ...runIds],
  );
  return ids.map(Number);
}

/** Those of `runIds` (any organization's) whose runs exist and are not in the trash, ascending. */
export async function listUntrashedIds(db: SqlDb, runIds: readonly number[]): Promise<number[]> {
  const found: number[] = [];
  for (const part of chunks(runIds, IN_CHUNK)) {
    const ids = await db.column<number>(
      `SELECT id FROM runs WHERE id IN (${part.map(() => '?').join(', ')}) AND deleted_at IS NULL`,
      part,
    );
    found.push(...ids.map(Number));
  }
  return found.sort((a, b) => a - b);
}

/**
 * Trashed runs (purged ones kept for forks included) of every organization trashed at or
 * after `since`, in (deletedAt, id) order after `after`, at most `limit`: what the sweep
 * re-hides in the series store. Reads the trash index.
 */
export async function listTrashedSince(
  db: SqlDb,
  since: number,
  after: TrashKey | null,
  limit: number,
): Promise<TrashKey[]> {
  const rows = await db.all<{ id: number; deleted_at: number }>(
    `SELECT id, deleted_at FROM runs WHERE deleted_at IS NOT NULL AND deleted_at >= ?
     ${after === null ? '' : 'AND (deleted_at > ? OR (deleted_at = ? AND id > ?))'}
     ORDER BY deleted_at, id LIMIT ?`,
    after === null ? [since, limit] : [since, after.deletedAt, after.deletedAt, after.id, limit],
  );
  return rows.map((r) => ({ deletedAt: Number(r.deleted_at), id: Number(r.id) }));
}
