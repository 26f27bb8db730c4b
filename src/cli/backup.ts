import fs from 'node:fs';
import path from 'node:path';
import * as tar from 'tar';
import { isEmbeddedStoreFile, snapshotEmbeddedStore } from '../store/embedded-snapshot.js';
import { ConfigError } from '../config.js';
import { required } from './args.js';

/** The archive's first entry: what it is and what it holds (restore checks `format`). */
export const MANIFEST = 'stepwise-backup.json';
export const BACKUP_FORMAT = 'stepwise-backup/1';

const USAGE = 'stepwise backup --data DIR --out FILE';

/** A blob being written (local blob store): never part of a snapshot. */
const PARTIAL = /\.part$/;

/**
 * Copies the files under dir into into: files under sub-directories (blobs, written once and
 * renamed into place, never changed) as hard links when the filesystem allows, top-level
 * files as copies. Skips the embedded database files and blobs still being written.
 * Returns the files and bytes taken.
 */
function takeFiles(dir: string, into: string, top: boolean): { files: number; bytes: number } {
  const taken = { files: 0, bytes: 0 };
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const from = path.join(dir, entry.name);
    const to = path.join(into, entry.name);
    if (entry.isDirectory()) {
      fs.mkdirSync(to, { recursive: true });
      const sub = takeFiles(from, to, false);
      taken.files += sub.files;
      taken.bytes += sub.bytes;
    } else if (entry.isFile() && !PARTIAL.test(entry.name) && !(top && isEmbeddedStoreFile(entry.name))) {
      if (top) fs.copyFileSync(from, to);
      else linkOrCopy(from, to);
      taken.files++;
      taken.bytes += fs.statSync(to).size;
    }
  }
  return taken;
}

function linkOrCopy(from: string, to: string): void {
  try {
    fs.linkSync(from, to);
  } catch {
    fs.copyFileSync(from, to);
  }
}

/**
 * Throws ConfigError when `file`'s folder is `dataDir` or lies under it (links resolved): the
 * backup would take its own staging copy and archive into itself.
 */
function refuseInside(dataDir: string, file: string): void {
  const rel = path.relative(fs.realpathSync(dataDir), fs.realpathSync(path.dirname(file)));
  if (rel.split(path.sep)[0] !== '..' && !path.isAbsolute(rel)) {
    throw new ConfigError(`--out ${file} is inside the data dir ${dataDir}; write the backup outside it`);
  }
}

/**
 * `stepwise backup --data DIR --out FILE`: a consistent snapshot of a data dir while a server
 * runs and writes: each database file by SQLite's online backup (as of one commit), then the
 * blobs and other files, written as one tar archive (FILE, created; refused when it exists)
 * whose first entry is the manifest. FILE must be outside DIR (ConfigError, exit code 2, before
 * anything is written). Returns the exit code.
 */
export async function backup(args: readonly string[], out: (line: string) => void): Promise<number> {
  const dataDir = path.resolve(required(args, 'data', USAGE));
  const file = path.resolve(required(args, 'out', USAGE));
  if (fs.existsSync(file)) throw new ConfigError(`${file} exists; backup writes a new file`);
  if (!fs.existsSync(path.dirname(file))) throw new ConfigError(`${path.dirname(file)} does not exist`);
  if (!fs.existsSync(path.join(dataDir, 'stepwise.db'))) throw new ConfigError(`${dataDir} is not a Stepwise data dir`);
  refuseInside(dataDir, file);
  const started = Date.now();
  const staging = fs.mkdtempSync(path.join(path.dirname(file), '.stepwise-backup-'));
  const partial = `${file}.partial`;
  try {
    const databases = await snapshotEmbeddedStore(dataDir, staging);
    const other = takeFiles(dataDir, staging, true);
    const manifest = { format: BACKUP_FORMAT, createdAt: new Date().toISOString(), databases, files: other.files };
    fs.writeFileSync(path.join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    const entries = fs.readdirSync(staging).filter((name) => name !== MANIFEST);
    await tar.create({ file: partial, cwd: staging, portable: true }, [MANIFEST, ...entries]);
    const handle = fs.openSync(partial, 'r');
    fs.fsyncSync(handle);
    fs.closeSync(handle);
    fs.renameSync(partial, file);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
    fs.rmSync(partial, { force: true });
  }
  const size = fs.statSync(file).size;
  out(
    `Backed up ${dataDir} to ${file} (${(size / 1e6).toFixed(1)} MB) in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
  );
  return 0;
}
