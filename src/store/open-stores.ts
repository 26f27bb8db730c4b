import fs from 'node:fs';
import path from 'node:path';
import type { EventStore } from './event-store.js';
import type { MetadataStore } from './metadata-store.js';
import type { OAuthStore } from './oauth-store.js';
import type { SeriesStore } from './series-store.js';
import { migrate } from './migrations/index.js';
import type { SqlDb } from './sql/db.js';
import { SqlEventStore } from './sql/event-store.js';
import { SqlMetadataStore } from './sql/metadata-store.js';
import { SqlOAuthStore } from './sql/oauth-store.js';
import { SqlSeriesStore } from './sql/series-store.js';

export interface Stores {
  metadata: MetadataStore;
  series: SeriesStore;
  /** The outbox and webhook subscriptions, on the metadata database. */
  events: EventStore;
  /** The OAuth authorization server's clients, grants and tokens, on the metadata database. */
  oauth: OAuthStore;
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
  /** Ad-hoc reads (run search) are stopped after this many ms (QUERY_TIMEOUT); 0 or undefined = never. */
  queryTimeoutMs?: number;
}

/** True for the URL schemes openStores understands. */
export function isDatabaseUrl(url: string): boolean {
  return /^(postgres|postgresql):\/\//i.test(url) || /^sqlite:/i.test(url);
}

/** The SQLite file of a target: `sqlite:<file>`, or `<dataDir>/stepwise.db`. */
function sqliteFile(target: StoreTarget): string {
  const url = target.databaseUrl;
  if (url !== undefined && !/^sqlite:/i.test(url))
    throw new Error('database URL must start with postgres:// or sqlite:');
  const file =
    url === undefined ? path.join(target.dataDir, 'stepwise.db') : path.resolve(url.replace(/^sqlite:(\/\/)?/i, ''));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  return file;
}

async function migrated(db: SqlDb): Promise<SqlDb> {
  try {
    await migrate(db);
    return db;
  } catch (err) {
    await db.close();
    throw err;
  }
}

async function openPostgresStores(url: string, queryTimeoutMs: number | undefined): Promise<Stores> {
  const { openPostgres } = await import('./postgres/postgres-db.js');
  const db = await migrated(await openPostgres(url, { queryTimeoutMs }));
  return {
    metadata: new SqlMetadataStore(db),
    series: new SqlSeriesStore(db, { mergeRunWrites: true }),
    events: new SqlEventStore(db),
    oauth: new SqlOAuthStore(db),
    exclusive: (fn) => db.withLock('startup', fn),
    close: () => db.close(),
  };
}

/**
 * The embedded engine: metadata in one SQLite file, series in a second one next to it whose
 * writes run on a writer thread (workerSeriesStore), so ingest never waits on, or blocks,
 * the main thread's write lock. Both files carry the full schema; each store uses its own.
 * A data dir from before the split (series rows in the metadata file) keeps one file.
 */
async function openSqliteStores(target: StoreTarget): Promise<Stores> {
  const { openSqlite } = await import('./sqlite/sqlite-db.js');
  const file = sqliteFile(target);
  const db = await migrated(openSqlite(file, { queryTimeoutMs: target.queryTimeoutMs }));
  const metadata = new SqlMetadataStore(db);
  const events = new SqlEventStore(db);
  const oauth = new SqlOAuthStore(db);
  const exclusive = <T>(fn: () => Promise<T>) => db.withLock('startup', fn);
  if (await db.get('SELECT 1 AS x FROM series LIMIT 1')) {
    return { metadata, series: new SqlSeriesStore(db), events, oauth, exclusive, close: () => db.close() };
  }
  const seriesFile = file.replace(/(\.db)?$/, '-series.db');
  // The series file's ad-hoc reads are index ranges of one project: they stay on the main thread.
  const seriesDb = await migrated(
    openSqlite(seriesFile, { searchThreads: 0, queryTimeoutMs: target.queryTimeoutMs, mapReads: true }),
  );
  const { workerSeriesStore } = await import('./sqlite/worker-series-store.js');
  const series = workerSeriesStore(seriesDb, seriesFile);
  return {
    metadata,
    series,
    events,
    oauth,
    exclusive,
    close: async () => {
      await series.close();
      await db.close();
    },
  };
}

/**
 * Opens the metadata and series stores on the target's database, migrated to the latest
 * version. Only the engine module in use is loaded (the embedded default never loads a
 * PostgreSQL client). Throws when the database cannot be opened or migrated.
 */
export function openStores(target: StoreTarget): Promise<Stores> {
  const url = target.databaseUrl;
  if (url !== undefined && /^(postgres|postgresql):\/\//i.test(url))
    return openPostgresStores(url, target.queryTimeoutMs);
  return openSqliteStores(target);
}

/** Opens the embedded stores in a data directory (created when missing). */
export function openEmbeddedStores(dataDir: string): Promise<Stores> {
  return openStores({ dataDir });
}
