import { describe } from 'vitest';
import { freshPostgresUrl, postgresTestUrl } from '../helpers/test-database.js';
import { openStores } from '../../src/store/open-stores.js';
import { metadataStoreSuite } from './metadata-store-suite.js';

describe.skipIf(postgresTestUrl() === undefined)('postgres', () => {
  metadataStoreSuite('postgres', async () => {
    const db = await freshPostgresUrl();
    const stores = await openStores({ databaseUrl: db.url, dataDir: '' });
    return {
      metadata: stores.metadata,
      close: async () => {
        await stores.close();
        await db.drop();
      },
    };
  });
});
