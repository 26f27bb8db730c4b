import { deepMerge, isPlainObject } from '../../../domain/deep-merge.js';
import { isTerminal } from '../../../domain/status-rules.js';
import type { Run } from '../../../domain/types.js';
import type { CreateRunInput } from '../../metadata-store.js';
import type { SqlDb, SqlExecutor } from '../db.js';
import { appendEventInTx, eventRunOf } from '../events/append-event.js';
import { ensureProject } from './projects.js';
import { RUN_COLUMNS, RUN_FROM, type RunRow, toRun, toJsonColumn } from './run-row.js';
import { conflict } from '../../../errors.js';

/**
 * Reads one run inside a transaction, optionally locking its row (the dialect's forUpdate;
 * only the run's row, not its project's); undefined when missing.
 */
export async function findRunInTx(tx: SqlExecutor, orgId: number, runId: number, lock = ''): Promise<Run | undefined> {
  const suffix = lock === '' ? '' : `${lock} OF r`;
  const row = await tx.get<RunRow>(`SELECT ${RUN_COLUMNS} FROM ${RUN_FROM} WHERE r.id = ? AND r.org_id = ? ${suffix}`, [
    runId,
    orgId,
  ]);
  return row && toRun(row);
}

/** Puts a finished run back to RUNNING with a `resume` event; a RUNNING run is left alone. */
export async function resumeInTx(tx: SqlExecutor, run: Run, at: number): Promise<void> {
  if (!isTerminal(run.status)) return;
  await tx.run('UPDATE runs SET status = ?, status_updated = ?, updated_at = ? WHERE id = ?', [
    'RUNNING',
    at,
    at,
    run.id,
  ]);
  await tx.run(
    'INSERT INTO status_events (run_id, from_status, to_status, source, metadata, created_at) VALUES (?, ?, ?, ?, NULL, ?)',
    [run.id, run.status, 'RUNNING', 'resume', at],
  );
  await appendEventInTx(tx, {
    orgId: run.orgId,
    projectId: run.projectId,
    runId: run.id,
    type: 'run.status_changed',
    data: {
      run: { ...eventRunOf(run), status: 'RUNNING' },
      from: run.status,
      to: 'RUNNING',
      source: 'resume',
      metadata: null,
    },
    at,
  });
}

async function resumeExisting(tx: SqlExecutor, orgId: number, run: Run, input: CreateRunInput): Promise<Run> {
  const at = Date.now();
  if (isPlainObject(input.configPatch)) {
    await tx.run('UPDATE runs SET config = ?, updated_at = ? WHERE id = ?', [
      toJsonColumn(deepMerge(run.config, input.configPatch)),
      at,
      run.id,
    ]);
  }
  await resumeInTx(tx, run, at);
  return (await findRunInTx(tx, orgId, run.id))!;
}

/** Creates a run, or resumes the one with the same externalId, in one transaction (createRunInTx). */
export function createRun(db: SqlDb, input: CreateRunInput): Promise<{ run: Run; resumed: boolean }> {
  return db.transaction((tx) => createRunInTx(tx, db.dialect.forUpdate, input));
}

/**
 * Creates a run inside a transaction, or resumes the run with the same externalId. The
 * project row is locked first, so creators of one project are serialised on every engine.
 */
export async function createRunInTx(
  tx: SqlExecutor,
  forUpdate: string,
  input: CreateRunInput,
): Promise<{ run: Run; resumed: boolean }> {
  const { orgId } = input;
  const projectId = await ensureProject(tx, forUpdate, orgId, input.projectName, Date.now());
  if (input.externalId !== null) {
    const row = await tx.get<{ id: number; deleted_at: number | null }>(
      'SELECT id, deleted_at FROM runs WHERE project_id = ? AND external_id = ?',
      [projectId, input.externalId],
    );
    if (row && row.deleted_at !== null) {
      throw conflict(
        `the run with externalId ${JSON.stringify(input.externalId)} is in the trash: restore it or use another externalId`,
      );
    }
    if (row) {
      const existing = (await findRunInTx(tx, orgId, Number(row.id)))!;
      return { run: await resumeExisting(tx, orgId, existing, input), resumed: true };
    }
  }
  const counter = await tx.get<{ n: number }>(
    `UPDATE projects SET next_number = next_number + 1, run_count = run_count + 1, updated_at = ? WHERE id = ?
     RETURNING next_number - 1 AS n`,
    [Date.now(), projectId],
  );
  const inserted = await tx.get<{ id: number }>(
    `INSERT INTO runs (org_id, project_id, number, name, external_id, status, tags, config, system_metadata,
       logger_settings, status_metadata, notes, forked_from_run_id, fork_step, created_at, updated_at, status_updated,
       last_seen_at, created_by)
     VALUES (?, ?, ?, ?, ?, 'RUNNING', ?, ?, ?, ?, NULL, NULL, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    [
      orgId,
      projectId,
      Number(counter!.n),
      input.name,
      input.externalId,
      JSON.stringify(input.tags),
      toJsonColumn(input.config),
      toJsonColumn(input.systemMetadata),
      toJsonColumn(input.loggerSettings),
      input.fork?.parentId ?? null,
      input.fork?.forkStep ?? null,
      input.createdAt,
      input.updatedAt,
      input.createdAt,
      Date.now(), // liveness is server time: a backfilled createdAt must not make the run stale
      input.actor?.userId ?? null,
    ],
  );
  const runId = Number(inserted!.id);
  await tx.run(
    `INSERT INTO status_events (run_id, from_status, to_status, source, metadata, created_at, actor_user_id, actor_key_id)
     VALUES (?, NULL, 'RUNNING', 'api', NULL, ?, ?, ?)`,
    [runId, input.createdAt, input.actor?.userId ?? null, input.actor?.keyId ?? null],
  );
  const run = (await findRunInTx(tx, orgId, runId))!;
  await appendEventInTx(tx, {
    orgId,
    projectId,
    runId,
    type: 'run.created',
    data: { run: eventRunOf(run) },
    at: Date.now(),
  });
  return { run, resumed: false };
}
