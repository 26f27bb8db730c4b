/** File records of runs: created awaiting their bytes, marked uploaded, listed once uploaded. */
import type { FileInput, FileRecord } from '../../domain/types.js';
import { logGroupOf } from '../../domain/log-group.js';
import type { FileListQuery } from '../series-store.js';
import type { SqlDb } from './db.js';
import type { SqlValue } from './sql-value.js';

interface FileRow {
  id: number | string;
  run_id: number | string;
  log_name: string;
  log_group: string;
  file_name: string;
  file_type: string;
  file_size: number | string;
  step: number | string;
  sample_index: number | string;
  time: number | string;
  caption: string | null;
  blob_key: string;
  uploaded_at: number | string | null;
}

const FILE_COLUMNS =
  'id, run_id, log_name, log_group, file_name, file_type, file_size, step, sample_index, time, caption, blob_key, uploaded_at';

const toRecord = (r: FileRow): FileRecord => ({
  id: Number(r.id),
  runId: Number(r.run_id),
  logName: r.log_name,
  logGroup: r.log_group,
  fileName: r.file_name,
  fileType: r.file_type,
  fileSize: Number(r.file_size),
  step: Number(r.step),
  sampleIndex: Number(r.sample_index),
  time: Number(r.time),
  caption: r.caption,
  blobKey: r.blob_key,
  uploadedAt: r.uploaded_at === null ? null : Number(r.uploaded_at),
});

const UPSERT_FILE = `INSERT INTO files (run_id, log_name, log_group, file_name, file_type, file_size, step, sample_index,
    time, caption, blob_key, uploaded_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)
  ON CONFLICT (run_id, log_name, file_name, step) DO UPDATE SET log_group = excluded.log_group,
    file_type = excluded.file_type, file_size = excluded.file_size, sample_index = excluded.sample_index,
    time = excluded.time, caption = excluded.caption, blob_key = excluded.blob_key, uploaded_at = NULL,
    created_at = excluded.created_at
  RETURNING ${FILE_COLUMNS}`;

/**
 * Creates file records awaiting their bytes, in one transaction, in input order; a record with
 * the same (run, logName, fileName, step) is replaced and waits for bytes again. Returns them.
 */
export function createFiles(db: SqlDb, runId: number, files: readonly FileInput[]): Promise<FileRecord[]> {
  if (files.length === 0) return Promise.resolve([]);
  const at = Date.now();
  return db.transaction(async (tx) => {
    const out: FileRecord[] = [];
    for (const f of files) {
      const row = await tx.get<FileRow>(UPSERT_FILE, [
        runId,
        f.logName,
        logGroupOf(f.logName),
        f.fileName,
        f.fileType,
        f.fileSize,
        f.step,
        f.sampleIndex,
        f.time,
        f.caption,
        f.blobKey,
        at,
      ]);
      if (!row) throw new Error(`file ${f.fileName} of run ${runId} was not stored`);
      out.push(toRecord(row));
    }
    return out;
  });
}

/**
 * Marks the file(s) with this blob key, still awaiting bytes, uploaded with their real size;
 * returns false when none has it or it was already uploaded.
 */
export async function markFileUploaded(db: SqlDb, blobKey: string, size: number, at: number): Promise<boolean> {
  const changed = await db.run(
    'UPDATE files SET uploaded_at = ?, file_size = ? WHERE blob_key = ? AND uploaded_at IS NULL',
    [at, size, blobKey],
  );
  return changed > 0;
}

/** Returns the file record with this blob key, or undefined. */
export async function findFile(db: SqlDb, blobKey: string): Promise<FileRecord | undefined> {
  const rows = await db.all<FileRow>(`SELECT ${FILE_COLUMNS} FROM files WHERE blob_key = ? LIMIT 1`, [blobKey]);
  return rows[0] === undefined ? undefined : toRecord(rows[0]);
}

/** The uploaded files of a run, filtered, in listing order, paged (`?` parameters in text order). */
function filesPage(db: SqlDb, runId: number, q: FileListQuery, columns: string): { sql: string; params: SqlValue[] } {
  const c = db.dialect.binaryCollate;
  let sql = `SELECT ${columns} FROM files WHERE run_id = ? AND uploaded_at IS NOT NULL`;
  const params: SqlValue[] = [runId];
  if (q.logName !== null) {
    sql += ' AND log_name = ?';
    params.push(q.logName);
  }
  if (q.logGroup !== null) {
    sql += ' AND log_group = ?';
    params.push(q.logGroup);
  }
  sql += ` ORDER BY step, sample_index, file_name ${c}, log_name ${c}, id LIMIT ? OFFSET ?`;
  params.push(q.limit, q.offset);
  return { sql, params };
}

/**
 * Returns a page of a run's uploaded files ordered by step, sampleIndex, fileName (code point
 * order), optionally only of one logName and/or one logGroup (exact).
 */
export async function listFiles(db: SqlDb, runId: number, q: FileListQuery): Promise<FileRecord[]> {
  const page = filesPage(db, runId, q, FILE_COLUMNS);
  const rows = await db.all<FileRow>(page.sql, page.params);
  return rows.map(toRecord);
}

/** How many files listFiles would return, and the bytes of their names, types, captions and blob keys. */
export async function fileListStats(
  db: SqlDb,
  runId: number,
  q: FileListQuery,
): Promise<{ count: number; bytes: number }> {
  const len = (column: string) => `COALESCE(octet_length(${column}), 0)`;
  const page = filesPage(db, runId, q, 'file_name, file_type, log_name, caption, blob_key');
  const row = await db.get<{ n: number | string; bytes: number | string | null }>(
    `SELECT count(*) AS n, SUM(${['file_name', 'file_type', 'log_name', 'log_name', 'caption', 'blob_key'].map(len).join(' + ')}) AS bytes
     FROM (${page.sql}) AS f`,
    page.params,
  );
  return { count: Number(row?.n ?? 0), bytes: Number(row?.bytes ?? 0) };
}

/** Returns a run's records still awaiting bytes, created at or after `since`, newest first, at most limit. */
export async function listPendingFiles(db: SqlDb, runId: number, since: number, limit: number): Promise<FileRecord[]> {
  const rows = await db.all<FileRow>(
    `SELECT ${FILE_COLUMNS} FROM files WHERE run_id = ? AND uploaded_at IS NULL AND created_at >= ?
     ORDER BY created_at DESC, id DESC LIMIT ?`,
    [runId, since, limit],
  );
  return rows.map(toRecord);
}
