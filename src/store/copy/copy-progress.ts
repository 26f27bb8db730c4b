import type { SqlExecutor } from '../sql/db.js';
import type { SourceValue } from '../sqlite/sqlite-source.js';

/** The target's table of copy progress: never one of the tables copied or verified. */
export const PROGRESS_TABLE = 'copy_progress';

/** Where one item of a copy stands: the last key done (a table's rows, the blobs) and whether it is finished. */
export interface ItemProgress {
  position: readonly SourceValue[] | undefined;
  done: boolean;
}

/** Creates the progress table in the target when missing. */
export async function createProgressTable(db: SqlExecutor): Promise<void> {
  await db.run(
    `CREATE TABLE IF NOT EXISTS ${PROGRESS_TABLE} (item TEXT PRIMARY KEY, position TEXT, done SMALLINT NOT NULL, updated_at BIGINT NOT NULL)`,
  );
}

/** Every item recorded so far, by item name. */
export async function readProgress(db: SqlExecutor): Promise<Map<string, ItemProgress>> {
  const rows = await db.all<{ item: string; position: string | null; done: number }>(
    `SELECT item, position, done FROM ${PROGRESS_TABLE}`,
  );
  return new Map(rows.map((r) => [r.item, { position: decodeKey(r.position), done: r.done === 1 }]));
}

/** Records an item's progress (in the caller's transaction, with the rows it covers). */
export async function saveProgress(db: SqlExecutor, item: string, progress: ItemProgress): Promise<void> {
  await db.run(
    `INSERT INTO ${PROGRESS_TABLE} (item, position, done, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (item) DO UPDATE SET position = excluded.position, done = excluded.done, updated_at = excluded.updated_at`,
    [item, encodeKey(progress.position), progress.done ? 1 : 0, Date.now()],
  );
}

type Tagged = { i: string } | { x: string } | number | string | null;

/** A key as JSON text: integers and blobs tagged so they come back exactly. */
function encodeKey(key: readonly SourceValue[] | undefined): string | null {
  if (key === undefined) return null;
  const tagged = key.map((v): Tagged => {
    if (typeof v === 'bigint') return { i: v.toString() };
    if (Buffer.isBuffer(v)) return { x: v.toString('hex') };
    return v;
  });
  return JSON.stringify(tagged);
}

function decodeKey(text: string | null): SourceValue[] | undefined {
  if (text === null) return undefined;
  return (JSON.parse(text) as Tagged[]).map((v) => {
    if (v !== null && typeof v === 'object') return 'i' in v ? BigInt(v.i) : Buffer.from(v.x, 'hex');
    return v;
  });
}
