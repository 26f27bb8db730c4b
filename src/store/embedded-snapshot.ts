import fs from 'node:fs';
import path from 'node:path';
import { backupSqliteFile, checkSqliteFile } from './sqlite/sqlite-backup.js';

/** The embedded store's database files in a data dir, series first (see snapshotEmbeddedStore). */
export const EMBEDDED_FILES = ['stepwise-series.db', 'stepwise.db'] as const;

/** What SQLite keeps next to a database file while it is open: never part of a snapshot. */
const SIDE_FILE = /\.db-(wal|shm|journal)$/;

/**
 * Copies the embedded store's database files of `dataDir` into the empty directory `into`
 * while a server may be writing them, each file as of one commit (online backup). The series
 * file is copied first: a run is created before its points, so every point of the copy
 * belongs to a run of the copy (a run may have points written after its file was copied
 * that are absent, as if they came after the snapshot). Returns the files copied; throws
 * when the data dir holds no `stepwise.db`.
 */
export async function snapshotEmbeddedStore(dataDir: string, into: string): Promise<string[]> {
  if (!fs.existsSync(path.join(dataDir, 'stepwise.db'))) {
    throw new Error(`${dataDir} holds no stepwise.db: not a Stepwise data dir`);
  }
  const copied: string[] = [];
  for (const name of EMBEDDED_FILES) {
    const source = path.join(dataDir, name);
    if (!fs.existsSync(source)) continue;
    await backupSqliteFile(source, path.join(into, name));
    copied.push(name);
  }
  return copied;
}

/** True for files of a data dir that snapshotEmbeddedStore copies, or that SQLite keeps beside them. */
export function isEmbeddedStoreFile(name: string): boolean {
  return (EMBEDDED_FILES as readonly string[]).includes(name) || SIDE_FILE.test(name);
}

/** Checks each embedded database file in dir (PRAGMA quick_check); throws naming the first damaged one. */
export function checkEmbeddedStore(dir: string): void {
  for (const name of EMBEDDED_FILES) {
    const file = path.join(dir, name);
    if (!fs.existsSync(file)) continue;
    const found = checkSqliteFile(file);
    if (found.length !== 1 || found[0] !== 'ok') throw new Error(`${name} is damaged: ${found.slice(0, 3).join('; ')}`);
  }
}
