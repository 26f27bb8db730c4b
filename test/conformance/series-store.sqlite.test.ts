import fs from 'node:fs';
import path from 'node:path';
import { afterAll } from 'vitest';
import { openMigratedSqlite } from '../helpers/test-database.js';
import { tempDir } from '../helpers/temp-dir.js';
import { SqlSeriesStore } from '../../src/store/sql/series-store.js';
import { seriesStoreSuite } from './series-store-suite.js';

const root = tempDir('stepwise-series-');
let next = 0;

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

seriesStoreSuite('sqlite', async () => {
  const dir = path.join(root, String(next++));
  fs.mkdirSync(dir);
  const db = await openMigratedSqlite(path.join(dir, 'series.db'));
  const series = new SqlSeriesStore(db);
  return {
    series,
    close: async () => {
      await series.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
});
