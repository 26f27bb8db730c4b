/**
 * Simple per-run writes of the SQL metadata store; each throws NOT_FOUND for a foreign run.
 */
import { deepMerge } from '../../../domain/deep-merge.js';
import type { LineageLink, LogNameEntry, Alert, AlertInput, ModelGraph } from '../../../domain/types.js';
import { badRequest, notFound } from '../../../errors.js';
import type { SqlDb, SqlExecutor } from '../db.js';
import { appendEventInTx, eventRunInTx } from '../events/append-event.js';
import { findRunInTx } from './run-create.js';
import { parseJsonColumn, toJsonColumn } from './run-row.js';
import { liveRun } from './live-runs.js';

async function requireRun(tx: SqlExecutor, orgId: number, runId: number, lock = ''): Promise<void> {
  const row = await tx.get(`SELECT id FROM runs WHERE id = ? AND org_id = ? AND ${liveRun('runs')} ${lock}`, [
    runId,
    orgId,
  ]);
  if (!row) throw notFound(`run ${runId} not found`);
}

export function updateNotes(db: SqlDb, orgId: number, runId: number, notes: string | null, at: number): Promise<void> {
  return db.transaction(async (tx) => {
    await requireRun(tx, orgId, runId);
    await tx.run('UPDATE runs SET notes = ?, updated_at = ? WHERE id = ?', [notes, at, runId]);
  });
}

export function updateConfig(
  db: SqlDb,
  orgId: number,
  runId: number,
  patch: Record<string, unknown>,
  at: number,
): Promise<void> {
  return db.transaction(async (tx) => {
    const run = await findRunInTx(tx, orgId, runId, db.dialect.forUpdate);
    if (!run) throw notFound(`run ${runId} not found`);
    const merged = toJsonColumn(deepMerge(run.config, patch));
    await tx.run('UPDATE runs SET config = ?, updated_at = ? WHERE id = ?', [merged, at, runId]);
  });
}

export function updateTags(db: SqlDb, orgId: number, runId: number, tags: string[], at: number): Promise<void> {
  return db.transaction(async (tx) => {
    await requireRun(tx, orgId, runId);
    await tx.run('UPDATE runs SET tags = ?, updated_at = ? WHERE id = ?', [JSON.stringify(tags), at, runId]);
  });
}

export function addLogNames(
  db: SqlDb,
  orgId: number,
  runId: number,
  entries: readonly LogNameEntry[],
  at: number,
  maxNames = Number.POSITIVE_INFINITY,
): Promise<void> {
  return db.transaction(async (tx) => {
    // The row lock serialises registrations of one run, so concurrent ones cannot pass the cap together.
    await requireRun(tx, orgId, runId, db.dialect.forUpdate);
    const added = await tx.runMany(
      `INSERT INTO log_names (run_id, log_name, log_type, log_group, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (run_id, log_name) DO NOTHING`,
      entries.map((e) => [runId, e.logName, e.logType, e.logGroup, at]),
    );
    if (added === 0 || maxNames === Number.POSITIVE_INFINITY) return;
    const row = await tx.get<{ n: number | string }>('SELECT count(*) AS n FROM log_names WHERE run_id = ?', [runId]);
    const count = Number(row?.n ?? 0);
    if (count > maxNames) {
      throw badRequest(
        `run ${runId} may have at most ${maxNames} log names (metric, data and file names); ` +
          `this request would make it ${count} (${added} new)`,
      );
    }
  });
}

export async function logNameStats(db: SqlDb, runId: number): Promise<{ count: number; bytes: number }> {
  const row = await db.get<{ n: number | string; bytes: number | string | null }>(
    `SELECT count(*) AS n, SUM(octet_length(log_name) + octet_length(log_group) + octet_length(log_type)) AS bytes
     FROM log_names WHERE run_id = ?`,
    [runId],
  );
  return { count: Number(row?.n ?? 0), bytes: Number(row?.bytes ?? 0) };
}

export async function listLogNames(db: SqlDb, runId: number): Promise<LogNameEntry[]> {
  const rows = await db.all<{ log_name: string; log_type: string; log_group: string }>(
    `SELECT log_name, log_type, log_group FROM log_names WHERE run_id = ? ORDER BY log_name ${db.dialect.binaryCollate}`,
    [runId],
  );
  return rows.map((r) => ({ logName: r.log_name, logType: r.log_type, logGroup: r.log_group }));
}

export function setModelGraph(db: SqlDb, orgId: number, runId: number, graph: ModelGraph, at: number): Promise<void> {
  return db.transaction(async (tx) => {
    await requireRun(tx, orgId, runId);
    await tx.run(
      `INSERT INTO model_graphs (run_id, format, nodes, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (run_id) DO UPDATE SET format = excluded.format, nodes = excluded.nodes, updated_at = excluded.updated_at`,
      [runId, graph.format, JSON.stringify(graph.nodes), at],
    );
  });
}

export async function findModelGraph(db: SqlDb, orgId: number, runId: number): Promise<ModelGraph | undefined> {
  await requireRun(db, orgId, runId);
  const row = await db.get<{ format: string; nodes: string }>(
    'SELECT format, nodes FROM model_graphs WHERE run_id = ?',
    [runId],
  );
  return row && { format: row.format, nodes: parseJsonColumn(row.nodes) };
}

export async function getLineage(db: SqlDb, orgId: number, runId: number, depth: number): Promise<LineageLink[]> {
  const links: LineageLink[] = [];
  let current: number | null = runId;
  let maxStep = Infinity;
  while (current !== null && links.length < depth) {
    // The run itself must be live; its fork ancestors may be trashed or purged (kept for it).
    const row: { forked_from_run_id: number | null; fork_step: number | null; deleted_at: number | null } | undefined =
      await db.get('SELECT forked_from_run_id, fork_step, deleted_at FROM runs WHERE id = ? AND org_id = ?', [
        current,
        orgId,
      ]);
    if (!row || (links.length === 0 && row.deleted_at !== null)) break;
    links.push({ runId: current, maxStep });
    if (row.forked_from_run_id === null || row.fork_step === null) break;
    maxStep = Math.min(maxStep, Number(row.fork_step));
    current = Number(row.forked_from_run_id);
  }
  if (links.length === 0) throw notFound(`run ${runId} not found`);
  return links;
}

export async function touchRun(db: SqlDb, runId: number, at: number): Promise<void> {
  await db.run('UPDATE runs SET last_seen_at = ? WHERE id = ?', [at, runId]);
}

export function createAlert(db: SqlDb, orgId: number, runId: number, a: AlertInput, at: number): Promise<void> {
  return db.transaction(async (tx) => {
    await requireRun(tx, orgId, runId);
    await tx.run(
      'INSERT INTO alerts (run_id, level, title, body, payload, alert_time, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [runId, a.level, a.title, a.body, JSON.stringify(a.payload), a.alertTime, at],
    );
    const { orgId: _org, projectId, ...run } = (await eventRunInTx(tx, runId))!;
    await appendEventInTx(tx, {
      orgId,
      projectId,
      runId,
      type: 'run.alert',
      data: { run, title: a.title, text: a.body, level: a.level },
      at,
    });
  });
}

export async function listAlerts(db: SqlDb, orgId: number, runId: number): Promise<Alert[]> {
  await requireRun(db, orgId, runId);
  const rows = await db.all<{
    id: number;
    level: string | null;
    title: string | null;
    body: string | null;
    payload: string;
    alert_time: number;
    created_at: number;
  }>('SELECT id, level, title, body, payload, alert_time, created_at FROM alerts WHERE run_id = ? ORDER BY id', [
    runId,
  ]);
  return rows.map((r) => ({
    id: Number(r.id),
    runId,
    level: r.level,
    title: r.title,
    body: r.body,
    payload: parseJsonColumn(r.payload),
    alertTime: Number(r.alert_time),
    createdAt: Number(r.created_at),
  }));
}
