import fs from 'node:fs';
import path from 'node:path';
import { afterAll } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { migrate } from '../../src/store/migrations/index.js';
import { SqlSeriesStore } from '../../src/store/sql/series-store.js';
import { openSqlite } from '../../src/store/sqlite/sqlite-db.js';
import { seriesStoreSuite } from './series-store-suite.js';

const root = tempDir('stepwise-series-');
let next = 0;

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

seriesStoreSuite('sqlite', async () => {
  const dir = path.join(root, String(next++));
  fs.mkdirSync(dir);
  const db = openSqlite(path.join(dir, 'series.db'));
  await migrate(db);
  const series = new SqlSeriesStore(db);
  return {
    series,
    close: async () => {
      await series.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
});
