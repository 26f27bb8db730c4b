import fs from 'node:fs';
import path from 'node:path';
import { afterAll } from 'vitest';
import { openMigratedSqlite } from '../helpers/test-database.js';
import { tempDir } from '../helpers/temp-dir.js';
import { SqlMetadataStore } from '../../src/store/sql/metadata-store.js';
import { metadataStoreSuite } from './metadata-store-suite.js';

const root = tempDir('stepwise-metadata-');
let next = 0;

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

metadataStoreSuite('sqlite', async () => {
  const dir = path.join(root, String(next++));
  fs.mkdirSync(dir);
  // The metadata store of the embedded engine alone (no series writer thread).
  const db = await openMigratedSqlite(path.join(dir, 'stepwise.db'));
  return {
    metadata: new SqlMetadataStore(db),
    close: async () => {
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
});
