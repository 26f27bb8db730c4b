import { derivePrefix, firstFreePrefix, prefixStart } from '../../../domain/display-id.js';
import type { Project } from '../../../domain/types.js';
import { conflict } from '../../../errors.js';
import type { SqlDb, SqlExecutor } from '../db.js';
import { liveProject, liveRun } from './live-runs.js';

interface ProjectRow {
  id: number;
  name: string;
  prefix: string;
  created_at: number;
  updated_at: number;
  run_count: number;
  runs_updated_at: number | null;
  runs_seen_at: number | null;
}

/**
 * The first display-id prefix derived from the name that no project of the org uses, found
 * with one query (the org's prefixes that start as every candidate does); throws CONFLICT
 * when all of the name's ~48,000 candidates are taken.
 */
async function freePrefix(tx: SqlExecutor, orgId: number, name: string): Promise<string> {
  const base = derivePrefix(name);
  const start = prefixStart(base);
  const rows = await tx.all<{ prefix: string }>(
    'SELECT prefix FROM projects WHERE org_id = ? AND substr(prefix, 1, 1) = ?',
    [orgId, start],
  );
  const free = firstFreePrefix(base, new Set(rows.map((r) => r.prefix)));
  if (free === undefined) {
    throw conflict(
      `no display-id prefix is left for project ${JSON.stringify(name)}: every prefix starting with ` +
        `${JSON.stringify(start)} that it may take is in use; choose a name that starts with another letter`,
    );
  }
  return free;
}

/**
 * The project of this name in the organization, created (with a unique prefix) when
 * missing, and locked until the transaction ends. Returns its id.
 */
export async function ensureProject(
  tx: SqlExecutor,
  forUpdate: string,
  orgId: number,
  name: string,
  at: number,
): Promise<number> {
  const select = `SELECT id, deleted_at FROM projects WHERE org_id = ? AND name = ? ${forUpdate}`;
  const found = await tx.get<{ id: number; deleted_at: number | null }>(select, [orgId, name]);
  // A new run in a trashed project brings the project back; its trashed runs stay in the trash.
  if (found && found.deleted_at !== null)
    await tx.run('UPDATE projects SET deleted_at = NULL WHERE id = ?', [found.id]);
  if (found) return Number(found.id);
  const prefix = await freePrefix(tx, orgId, name);
  await tx.run(
    `INSERT INTO projects (org_id, name, prefix, next_number, created_at, updated_at) VALUES (?, ?, ?, 1, ?, ?)
     ON CONFLICT (org_id, name) DO NOTHING`,
    [orgId, name, prefix, at, at],
  );
  const created = await tx.get<{ id: number }>(select, [orgId, name]);
  return Number(created!.id);
}

/** The latest value of a column over a project's live runs: one probe of its partial index (migration 018). */
const latestOfLiveRuns = (column: string): string =>
  `(SELECT MAX(r.${column}) FROM runs r WHERE r.project_id = p.id AND ${liveRun('r')})`;

/**
 * Projects of an organization (or its one project of that name), newest first, with run
 * counts. `updatedAt` is the project's last activity: the latest of its own update, its runs'
 * updates and their last sign of life (`last_seen_at`, written by ingest at most every few seconds).
 * Reads no run rows: the count is kept on the project (project-run-count.ts) and each latest
 * time is one index probe, so its cost grows with the projects, not with their runs.
 */
export async function listProjects(db: SqlDb, orgId: number, name?: string): Promise<Project[]> {
  const rows = await db.all<ProjectRow>(
    `SELECT p.id, p.name, p.prefix, p.created_at, p.updated_at, p.run_count,
       ${latestOfLiveRuns('updated_at')} AS runs_updated_at, ${latestOfLiveRuns('last_seen_at')} AS runs_seen_at
     FROM projects p
     WHERE p.org_id = ? AND ${liveProject('p')} ${name === undefined ? '' : 'AND p.name = ?'}
     ORDER BY p.created_at DESC, p.id DESC`,
    name === undefined ? [orgId] : [orgId, name],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    name: r.name,
    prefix: r.prefix,
    createdAt: Number(r.created_at),
    updatedAt: Math.max(Number(r.updated_at), Number(r.runs_updated_at ?? 0), Number(r.runs_seen_at ?? 0)),
    runCount: Number(r.run_count),
  }));
}

/** An organization's project of that name, with its run count, or undefined. */
export async function findProject(db: SqlDb, orgId: number, name: string): Promise<Project | undefined> {
  return (await listProjects(db, orgId, name))[0];
}

/**
 * The id of an organization's live project of that name, or undefined: one index lookup, for
 * the reads that need no run count or activity (findProject aggregates every run of it).
 */
export async function findProjectId(db: SqlDb, orgId: number, name: string): Promise<number | undefined> {
  const row = await db.get<{ id: number }>(
    `SELECT p.id FROM projects p WHERE p.org_id = ? AND p.name = ? AND ${liveProject('p')}`,
    [orgId, name],
  );
  return row === undefined ? undefined : Number(row.id);
}
