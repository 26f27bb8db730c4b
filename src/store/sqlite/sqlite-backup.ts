import Database from 'better-sqlite3';

/** Most pages SQLite's backup step takes at once: the rest of the file, in one step. */
const ALL_PAGES = 0x7fffffff;

/**
 * Copies the SQLite database at `source` to a new file `target` with SQLite's online backup
 * API while other processes keep writing to it (WAL): the first step learns the page count,
 * the second copies every page inside one read transaction, so the copy is the database as
 * of one commit, never half of one. Returns the pages copied; an existing `target` is
 * replaced. Throws when `source` is missing or not a database.
 */
export async function backupSqliteFile(source: string, target: string): Promise<number> {
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 10000');
    const done = await db.backup(target, { progress: () => ALL_PAGES });
    return done.totalPages;
  } finally {
    db.close();
  }
}

/**
 * Runs `PRAGMA quick_check` on a database file no other process uses (a restored one) and
 * returns its findings, `['ok']` when the file is whole. Opened for writing, so that closing
 * it leaves no `-wal`/`-shm` file behind; throws when it is not a database.
 */
export function checkSqliteFile(file: string): string[] {
  const db = new Database(file, { fileMustExist: true });
  try {
    const rows = db.pragma('quick_check') as Record<string, unknown>[];
    return rows.map((r) => String(Object.values(r)[0]));
  } finally {
    db.close();
  }
}
