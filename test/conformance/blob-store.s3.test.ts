import { afterAll, beforeAll } from 'vitest';
import { S3BlobStore } from '../../src/blob/s3-blob-store.js';
import { S3_CREDENTIALS, startS3TestServer, type S3TestServer } from '../helpers/s3-test-server.js';
import { blobStoreSuite } from './blob-store-suite.js';

let server: S3TestServer;
let next = 0;

beforeAll(async () => {
  server = await startS3TestServer();
});
afterAll(() => server.stop());

// Each store gets its own key prefix in the one bucket, so stores never see each other's blobs.
blobStoreSuite('s3 (s3rver)', () => {
  const blobs = new S3BlobStore(server.blobUrl(`suite-${next++}`), { credentials: S3_CREDENTIALS });
  return Promise.resolve({ blobs, close: () => blobs.close() });
});
