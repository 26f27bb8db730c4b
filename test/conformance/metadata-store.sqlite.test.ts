import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { openEmbeddedStores } from '../../src/store/open-stores.js';
import { metadataStoreSuite } from './metadata-store-suite.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-metadata-'));
let next = 0;

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

metadataStoreSuite('sqlite', async () => {
  const dir = path.join(root, String(next++));
  const stores = await openEmbeddedStores(dir);
  return {
    metadata: stores.metadata,
    close: async () => {
      await stores.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
});
