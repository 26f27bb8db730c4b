import fs from 'node:fs';
import path from 'node:path';
import type { MetadataStore } from './metadata-store.js';
import type { SeriesStore } from './series-store.js';
import { migrate } from './migrations/index.js';
import type { SqlDb } from './sql/sql-db.js';
import { SqlMetadataStore } from './sql/sql-metadata-store.js';
import { SqlSeriesStore } from './sql/sql-series-store.js';

export interface Stores {
  metadata: MetadataStore;
  series: SeriesStore;
  /** Runs fn holding a lock every server on the same database respects (e.g. first-start bootstrap). */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  /** Closes every store once. */
  close(): Promise<void>;
}

/** Where the stores live: a database URL, or the embedded default in a data directory. */
export interface StoreTarget {
  /** `postgres://…`/`postgresql://…`, `sqlite:<file>`, or undefined for `<dataDir>/stepwise.db`. */
  databaseUrl?: string | undefined;
  dataDir: string;
}

/** True for the URL schemes openStores understands. */
export function isDatabaseUrl(url: string): boolean {
  return /^(postgres|postgresql):\/\//i.test(url) || /^sqlite:/i.test(url);
}

async function openDb(target: StoreTarget): Promise<SqlDb> {
  const url = target.databaseUrl;
  if (url !== undefined && /^(postgres|postgresql):\/\//i.test(url)) {
    const { openPostgres } = await import('./postgres/postgres-db.js');
    return openPostgres(url);
  }
  if (url !== undefined && !/^sqlite:/i.test(url))
    throw new Error('database URL must start with postgres:// or sqlite:');
  const file =
    url === undefined ? path.join(target.dataDir, 'stepwise.db') : path.resolve(url.replace(/^sqlite:(\/\/)?/i, ''));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const { openSqlite } = await import('./sqlite/sqlite-db.js');
  return openSqlite(file);
}

/**
 * Opens the metadata and series stores on the target's database, migrated to the latest
 * version. Only the engine module in use is loaded (the embedded default never loads a
 * PostgreSQL client). Throws when the database cannot be opened or migrated.
 */
export async function openStores(target: StoreTarget): Promise<Stores> {
  const db = await openDb(target);
  try {
    await migrate(db);
  } catch (err) {
    await db.close();
    throw err;
  }
  return {
    metadata: new SqlMetadataStore(db),
    series: new SqlSeriesStore(db),
    exclusive: (fn) => db.withLock('startup', fn),
    close: () => db.close(),
  };
}

/** Opens the embedded stores in a data directory (created when missing): one SQLite file. */
export function openEmbeddedStores(dataDir: string): Promise<Stores> {
  return openStores({ dataDir });
}
