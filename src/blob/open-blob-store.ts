import path from 'node:path';
import type { Config } from '../config.js';
import type { BlobStore } from './blob-store.js';
import { LocalBlobStore } from './local-blob-store.js';
import type { UrlSigner } from './url-signer.js';

/**
 * Opens the configured blob store: S3-compatible storage for an `s3://` blob URL (the AWS
 * SDK is loaded only then), else the directory `<dataDir>/blobs` with links signed by signer.
 */
export async function openBlobStore(
  config: Pick<Config, 'blobUrl' | 'dataDir' | 'publicUrl' | 's3Credentials' | 's3Region'>,
  signer: UrlSigner,
): Promise<BlobStore> {
  if (config.blobUrl === undefined) {
    return new LocalBlobStore(path.join(config.dataDir, 'blobs'), config.publicUrl, signer);
  }
  const { S3BlobStore } = await import('./s3-blob-store.js');
  return new S3BlobStore(config.blobUrl, { credentials: config.s3Credentials, region: config.s3Region });
}
