import { afterAll, describe } from 'vitest';
import { postgresTestUrl, reusedPostgresDb } from '../helpers/test-database.js';
import { SqlSeriesStore } from '../../src/store/sql/series-store.js';
import { seriesStoreSuite } from './series-store-suite.js';

describe.skipIf(postgresTestUrl() === undefined)('postgres', () => {
  const database = reusedPostgresDb();
  afterAll(() => database.close());
  // The series store openStores builds on PostgreSQL, over a database emptied for each test.
  seriesStoreSuite('postgres', async () => ({
    series: new SqlSeriesStore(await database.empty(), { mergeRunWrites: true }),
    close: () => Promise.resolve(),
  }));
});
