import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from '../../src/app.js';
import { LocalBlobStore } from '../../src/blob/local-blob-store.js';
import { UrlSigner } from '../../src/blob/url-signer.js';
import { loadConfig } from '../../src/config.js';
import { openEmbeddedStores } from '../../src/store/open-stores.js';
import { freePort } from '../helpers/spawned-server.js';
import { tempDir } from '../helpers/temp-dir.js';
import { blobStoreSuite } from './blob-store-suite.js';
import { depsOf } from '../../src/services/context.js';

// The local store's links are answered by the server's own routes, so each store comes
// with the app listening on the port its links name.
blobStoreSuite('local directory', async () => {
  const dataDir = tempDir('stepwise-blobs-');
  const port = await freePort();
  const config = loadConfig(['--data', dataDir, '--port', String(port)], {});
  const stores = await openEmbeddedStores(dataDir);
  const signer = new UrlSigner('blob-suite-secret');
  const blobs = new LocalBlobStore(path.join(dataDir, 'blobs'), config.publicUrl, signer);
  const app = await buildApp(depsOf(config, stores, blobs, signer));
  await app.listen({ port, host: '127.0.0.1' });
  // The server takes an upload only for a file record awaiting exactly that many bytes.
  const uploadUrl = async (key: string, size = 0): Promise<string> => {
    const file = { logName: 'f', fileName: key, fileType: 'bin', fileSize: size, step: 0, sampleIndex: 0, time: 1 };
    await stores.series.createFiles(2, [{ ...file, caption: null, blobKey: key }]);
    return blobs.uploadUrl(key, size);
  };
  return {
    blobs: Object.assign(Object.create(blobs) as LocalBlobStore, { uploadUrl }),
    close: async () => {
      await app.close();
      await stores.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
});
