import fs from 'node:fs';
import path from 'node:path';
import type { MetadataStore } from './metadata-store.js';
import type { SeriesStore } from './series-store.js';
import { migrate } from './migrations/index.js';
import { SqlMetadataStore } from './sql/sql-metadata-store.js';
import { SqlSeriesStore } from './sql/sql-series-store.js';

export interface Stores {
  metadata: MetadataStore;
  series: SeriesStore;
  /** Closes every store once. */
  close(): Promise<void>;
}

/**
 * Opens the embedded stores in a data directory (created when missing): one SQLite file,
 * migrated to the latest version. The engine module is loaded only when used.
 */
export async function openEmbeddedStores(dataDir: string): Promise<Stores> {
  fs.mkdirSync(dataDir, { recursive: true });
  const { openSqlite } = await import('./sqlite/sqlite-db.js');
  const db = openSqlite(path.join(dataDir, 'stepwise.db'));
  await migrate(db);
  return {
    metadata: new SqlMetadataStore(db),
    series: new SqlSeriesStore(db),
    close: () => db.close(),
  };
}
