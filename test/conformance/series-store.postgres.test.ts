import { describe } from 'vitest';
import { freshPostgresUrl, postgresTestUrl } from '../helpers/test-database.js';
import { openStores } from '../../src/store/open-stores.js';
import { seriesStoreSuite } from './series-store-suite.js';

describe.skipIf(postgresTestUrl() === undefined)('postgres', () => {
  seriesStoreSuite('postgres', async () => {
    const db = await freshPostgresUrl();
    const stores = await openStores({ databaseUrl: db.url, dataDir: '' });
    return {
      series: stores.series,
      close: async () => {
        await stores.close();
        await db.drop();
      },
    };
  });
});
