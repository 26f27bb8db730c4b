import fs from 'node:fs';
import path from 'node:path';
import { migrate } from '../migrations/index.js';
import { openStores } from '../open-stores.js';
import { openPostgres } from '../postgres/postgres-db.js';
import type { SqlDb } from '../sql/db.js';
import { SqliteSource } from '../sqlite/sqlite-source.js';
import { planCopy, type TablePlan } from './copy-plan.js';
import { readProgress, saveProgress } from './copy-progress.js';
import { CopyRefused, copyTables, prepareTarget } from './copy-tables.js';
import { verifyTables, type Check } from './verify-tables.js';

export type { Check } from './verify-tables.js';
export { CopyRefused } from './copy-tables.js';

/** A blob to copy: its file id (the order and resume point), key and recorded size. */
export interface BlobRef {
  id: number;
  key: string;
  size: number;
  /** The progress item of the source file that lists it. */
  item: string;
}

/** A copy of an embedded data dir into an empty PostgreSQL database, resumable (see openEmbeddedCopy). */
export interface EmbeddedCopy {
  /** Rows to copy in all, and source tables the target schema lacks (not copied). */
  readonly totalRows: number;
  readonly unknownTables: readonly string[];
  /** Copies every table (resuming), calling onRows per committed batch; ids, numbers and identities kept. */
  copyTables(batchRows: number, onRows: (rows: number, item: string) => void): Promise<void>;
  /** Files with uploaded bytes, in order: all of them, or those after the recorded blob progress. */
  blobs(options: { resume: boolean }): AsyncGenerator<BlobRef>;
  /** Records that every blob up to ref (in blobs() order) is copied. */
  blobCopied(ref: BlobRef): Promise<void>;
  /** Per-table and per-series checks between the source and the target. */
  verifyTables(): Promise<Check[]>;
  /** Marks the copy complete in the target's progress. */
  finish(): Promise<void>;
  close(): Promise<void>;
}

/** The embedded database files and the label of their progress items. */
const FILES = [
  { name: 'stepwise.db', label: 'metadata' },
  { name: 'stepwise-series.db', label: 'series' },
] as const;

const BLOB_PAGE = 256;

/**
 * Prepares a copy of the embedded store in dataDir into the PostgreSQL database at
 * databaseUrl: migrates both (the source as a server start would), plans every table from
 * the target's schema, and checks the target is empty or holds this source's unfinished copy
 * (progress is kept in the target, table `copy_progress`). Each run reads the source as of
 * its start; a server writing meanwhile makes a resumed copy miss its later rows of tables
 * copied before (verification reports them): stop it first, or copy a restored backup.
 * Throws CopyRefused for any other target, an unreachable one, or a dir without a store.
 */
export async function openEmbeddedCopy(dataDir: string, databaseUrl: string): Promise<EmbeddedCopy> {
  if (!/^(postgres|postgresql):\/\//i.test(databaseUrl)) throw new CopyRefused('the target must be a postgres:// URL');
  if (!fs.existsSync(path.join(dataDir, 'stepwise.db'))) throw new CopyRefused(`${dataDir} holds no stepwise.db`);
  await (await openStores({ dataDir })).close();
  const sources = FILES.filter((f) => fs.existsSync(path.join(dataDir, f.name))).map((f) => ({
    label: f.label,
    source: new SqliteSource(path.join(dataDir, f.name)),
  }));
  // Series first, as a backup takes them: every point read belongs to a run read.
  for (const s of [...sources].reverse()) s.source.pinSnapshot();
  let target: SqlDb | undefined;
  try {
    target = await openPostgres(databaseUrl, { maxConnections: 2 }).catch((err: unknown) => {
      throw new CopyRefused(`cannot reach the target database: ${err instanceof Error ? err.message : String(err)}`);
    });
    await migrate(target, { log: () => undefined });
    const { plan, unknown } = await planCopy(target, sources);
    await prepareTarget(target, plan, path.resolve(dataDir));
    return embeddedCopy(target, plan, unknown, sources);
  } catch (err) {
    for (const s of sources) s.source.close();
    await target?.close();
    throw err;
  }
}

function embeddedCopy(
  target: SqlDb,
  plan: TablePlan[],
  unknownTables: string[],
  sources: readonly { label: string; source: SqliteSource }[],
): EmbeddedCopy {
  return {
    totalRows: plan.reduce((sum, t) => sum + t.parts.reduce((n, p) => n + p.rows, 0), 0),
    unknownTables,
    copyTables: (batchRows, onRows) => copyTables(target, plan, { batchRows, onRows }),
    async *blobs({ resume }) {
      const progress = resume ? await readProgress(target) : new Map();
      for (const s of sources) {
        const item = `blobs:${s.label}`;
        let after = Number(progress.get(item)?.position?.[0] ?? 0);
        for (;;) {
          const page = s.source.uploadedBlobs(after, BLOB_PAGE);
          for (const b of page) yield { ...b, item };
          if (page.length < BLOB_PAGE) break;
          after = page[page.length - 1]!.id;
        }
      }
    },
    blobCopied: (ref) => saveProgress(target, ref.item, { position: [ref.id], done: false }),
    verifyTables: () => verifyTables(target, plan),
    finish: () => saveProgress(target, 'complete', { position: undefined, done: true }),
    close: async () => {
      for (const s of sources) s.source.close();
      await target.close();
    },
  };
}
