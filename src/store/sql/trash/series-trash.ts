/**
 * The series store's side of the trash: hiding a trashed run's metric series from its
 * project (TRASHED_SERIES in ../runs/live-runs.ts), and deleting what a purged run leaves in
 * the series database.
 */
import type { SqlDb } from '../db.js';
import { TRASHED_SERIES } from '../runs/live-runs.js';
import { chunks, IN_CHUNK } from '../util.js';

/**
 * Takes the runs' series out of their projects' series reads (`hidden`), or puts them back.
 * Idempotent: a row already in the asked state is left alone. Returns the rows changed.
 */
export async function setRunSeriesHidden(db: SqlDb, runIds: readonly number[], hidden: boolean): Promise<number> {
  const state = hidden ? TRASHED_SERIES.live : TRASHED_SERIES.trashed;
  return db.transaction(async (tx) => {
    let changed = 0;
    for (const part of chunks(runIds, IN_CHUNK)) {
      const marks = part.map(() => '?').join(', ');
      changed += await tx.run(`UPDATE series SET ${TRASHED_SERIES.flip} WHERE run_id IN (${marks}) AND ${state}`, part);
    }
    return changed;
  });
}

/** The blob keys of a run's file records (uploaded or not), for deleting their bytes before the records. */
export function listRunBlobKeys(db: SqlDb, runId: number): Promise<string[]> {
  return db.column<string>('SELECT blob_key FROM files WHERE run_id = ?', [runId]);
}

/**
 * Deletes, in one transaction, a purged run's console lines, data lines and file records,
 * and (unless `keepSeries`: a fork still reads them) its metric series with their chunks,
 * rollups and points. Idempotent: a second call finds nothing.
 */
export function purgeRunData(db: SqlDb, runId: number, keepSeries: boolean): Promise<void> {
  return db.transaction(async (tx) => {
    for (const table of ['console_lines', 'console_runs', 'console_counts', 'data_lines', 'files']) {
      await tx.run(`DELETE FROM ${table} WHERE run_id = ?`, [runId]);
    }
    if (keepSeries) return;
    const ofRun = 'series_id IN (SELECT id FROM series WHERE run_id = ?)';
    for (const table of ['metric_chunks', 'metric_rollups', 'metric_points']) {
      await tx.run(`DELETE FROM ${table} WHERE ${ofRun}`, [runId]);
    }
    await tx.run('DELETE FROM series WHERE run_id = ?', [runId]);
  });
}

/** Gives the space of deleted rows back (SqlDb.reclaimSpace). */
export function reclaimSpace(db: SqlDb): Promise<void> {
  return db.reclaimSpace();
}
