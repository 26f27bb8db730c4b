import fs from 'node:fs';
import path from 'node:path';
import * as tar from 'tar';
import { checkEmbeddedStore } from '../store/embedded-snapshot.js';
import { ConfigError } from '../config.js';
import { required } from './args.js';
import { BACKUP_FORMAT, MANIFEST } from './backup.js';

const USAGE = 'stepwise restore --in FILE --data NEWDIR';

/**
 * `stepwise restore --in FILE --data NEWDIR`: unpacks a backup archive into a new or empty
 * directory (refuses one that holds anything), checks its manifest and each database file
 * (PRAGMA quick_check), and removes what it unpacked when a check fails. A server started on
 * NEWDIR answers as the original did when the backup was taken. Returns the exit code.
 */
export async function restore(args: readonly string[], out: (line: string) => void): Promise<number> {
  const file = path.resolve(required(args, 'in', USAGE));
  const dataDir = path.resolve(required(args, 'data', USAGE));
  if (!fs.existsSync(file)) throw new ConfigError(`${file} does not exist`);
  if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0) {
    throw new ConfigError(`${dataDir} is not empty; restore only into a new or empty directory`);
  }
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    await tar.extract({ file, cwd: dataDir, strict: true });
    const manifestFile = path.join(dataDir, MANIFEST);
    const manifest = fs.existsSync(manifestFile) ? (JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as unknown) : {};
    const format = (manifest as { format?: unknown }).format;
    if (format !== BACKUP_FORMAT) throw new ConfigError(`${file} is not a Stepwise backup (${BACKUP_FORMAT})`);
    fs.rmSync(manifestFile);
    checkEmbeddedStore(dataDir);
    out(`Restored ${file} (taken ${(manifest as { createdAt?: string }).createdAt ?? '?'}) into ${dataDir}.`);
    return 0;
  } catch (err) {
    for (const name of fs.readdirSync(dataDir)) fs.rmSync(path.join(dataDir, name), { recursive: true, force: true });
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(`cannot restore ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
