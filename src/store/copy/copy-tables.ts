import { advanceIdentities, hasRows } from '../postgres/postgres-catalog.js';
import type { SqlDb } from '../sql/db.js';
import type { SourceValue } from '../sqlite/sqlite-source.js';
import { createProgressTable, readProgress, saveProgress } from './copy-progress.js';
import type { CopyPart, TablePlan } from './copy-plan.js';

/** Options of copyTables. */
export interface CopyTablesOptions {
  /** Rows per transaction (default 2,000; fewer when they pass 32 MiB). */
  batchRows?: number;
  /** Called after each committed batch with the rows it held and the part's item. */
  onRows?: (rows: number, item: string) => void;
}

/** A target or source the copy will not use (not empty, another source's copy): the message says why. */
export class CopyRefused extends Error {}

/** The progress item holding the source's identity; present once a copy has started. */
const SOURCE_ITEM = 'source';

/**
 * Checks that the target may receive this copy: empty (no row in any table of the plan) and
 * never copied into, or holding the progress of a copy from the same source. Creates the
 * progress table. Throws CopyRefused when the target holds other data or another source's copy.
 */
export async function prepareTarget(target: SqlDb, plan: readonly TablePlan[], sourceId: string): Promise<void> {
  await createProgressTable(target);
  const progress = await readProgress(target);
  const started = progress.get(SOURCE_ITEM);
  if (started) {
    const from = (started.position ?? [])[0];
    if (from !== sourceId) throw new CopyRefused(`the target holds a copy from ${String(from)}, not from ${sourceId}`);
    return;
  }
  for (const t of plan) {
    if (await hasRows(target, t.target.name)) {
      throw new CopyRefused(
        `the target database is not empty (table ${t.target.name} has rows); copy needs an empty one`,
      );
    }
  }
  await saveProgress(target, SOURCE_ITEM, { position: [sourceId], done: false });
}

/**
 * Copies every part of the plan into the target, in batches of rows that each commit
 * together with the part's progress (so a copy killed at any moment resumes after its last
 * committed batch, never repeating or skipping a row), then moves the target's identities
 * past the copied ids. Rows keep their ids, so every id, number, display id and SQID stays.
 * Bulk batches go through COPY (postgres-bulk.ts). Run again, it only reports what is done.
 */
export async function copyTables(target: SqlDb, plan: readonly TablePlan[], options: CopyTablesOptions): Promise<void> {
  const progress = await readProgress(target);
  for (const t of plan) {
    for (const part of t.parts) {
      const at = progress.get(part.item);
      if (at?.done) {
        options.onRows?.(part.rows, part.item);
        continue;
      }
      await copyPart(target, part, at?.position, options);
    }
  }
  for (const t of plan) await advanceIdentities(target, t.target);
}

async function copyPart(
  target: SqlDb,
  part: CopyPart,
  resumeAfter: readonly SourceValue[] | undefined,
  options: CopyTablesOptions,
): Promise<void> {
  const insert = `INSERT INTO ${part.table.name} (${part.columns.join(', ')}) VALUES (${part.columns.map(() => '?').join(', ')})`;
  let after = resumeAfter;
  if (after !== undefined) options.onRows?.(countThrough(part, after), part.item);
  for (;;) {
    const rows = part.source.page(part.table, part.columns, after, options.batchRows ?? 2000);
    const last = rows[rows.length - 1];
    if (!last) break;
    after = last.key;
    await target.transaction(async (tx) => {
      await tx.runMany(
        insert,
        rows.map((r) => r.values),
      );
      await saveProgress(tx, part.item, { position: last.key, done: false });
    });
    options.onRows?.(rows.length, part.item);
  }
  await saveProgress(target, part.item, { position: after, done: true });
}

/** Rows of a part up to and including a key (what a resumed copy already did). */
function countThrough(part: CopyPart, key: readonly SourceValue[]): number {
  return part.rows - part.source.countAfter(part.table, key);
}
