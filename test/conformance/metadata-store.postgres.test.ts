import { afterAll, describe } from 'vitest';
import { postgresTestUrl, reusedPostgresDb } from '../helpers/test-database.js';
import { SqlMetadataStore } from '../../src/store/sql/metadata-store.js';
import { metadataStoreSuite } from './metadata-store-suite.js';

describe.skipIf(postgresTestUrl() === undefined)('postgres', () => {
  const database = reusedPostgresDb();
  afterAll(() => database.close());
  // The metadata store openStores builds on PostgreSQL, over a database emptied for each test.
  metadataStoreSuite('postgres', async () => ({
    metadata: new SqlMetadataStore(await database.empty()),
    close: () => Promise.resolve(),
  }));
});
