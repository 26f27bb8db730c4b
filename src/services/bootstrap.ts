import fs from 'node:fs';
import path from 'node:path';
import type { MetadataStore } from '../store/metadata-store.js';
import { createApiKey, hashApiKey } from './api-keys.js';

/** The organization, user and key name a fresh installation starts with. */
export const DEFAULT_ORG = 'default';
export const DEFAULT_USER = 'admin';

/**
 * On a store with no organization (or when `bootstrapKey` is given and not yet stored),
 * creates the default organization, its admin user and a key of that user, and writes the key to
 * `<dataDir>/bootstrap-key` (mode 0600). Returns the new key, or undefined when nothing was made.
 */
export async function bootstrapInstallation(
  store: MetadataStore,
  dataDir: string,
  bootstrapKey: string | undefined,
): Promise<string | undefined> {
  if (bootstrapKey !== undefined) {
    if (await store.findApiKeyByHash(hashApiKey(bootstrapKey))) return undefined;
  } else if ((await store.countOrganizations()) > 0) {
    return undefined;
  }
  const { key } = await createApiKey(store, {
    orgSlug: DEFAULT_ORG,
    userName: DEFAULT_USER,
    name: 'bootstrap',
    expiresAt: null,
    key: bootstrapKey,
    admin: true,
  });
  const file = path.join(dataDir, 'bootstrap-key');
  fs.writeFileSync(file, `${key}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  return key;
}
