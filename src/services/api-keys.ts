import { createHash, randomBytes } from 'node:crypto';
import type { MetadataStore } from '../store/metadata-store.js';

/** The prefix of every key Stepwise generates. */
export const KEY_PREFIX = 'sw_';

/** A new random API key: the prefix plus 256 bits of randomness, base64url. */
export const generateApiKey = (): string => KEY_PREFIX + randomBytes(32).toString('base64url');

/** The SHA-256 (hex) a key is stored and looked up by. */
export const hashApiKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

/** The part of a key that may be shown again after creation (never enough to use it). */
export const keyDisplayPrefix = (key: string): string => key.slice(0, key.startsWith(KEY_PREFIX) ? 11 : 6);

export interface CreateKeyOptions {
  orgSlug: string;
  userName: string;
  name: string;
  expiresAt: number | null;
  /** Use this exact key instead of generating one. */
  key?: string;
}

/**
 * Creates an API key (and its organization and user when missing). Returns the key in
 * clear, which is never stored, with its id.
 */
export async function createApiKey(store: MetadataStore, o: CreateKeyOptions): Promise<{ id: number; key: string }> {
  const at = Date.now();
  const orgId = await store.ensureOrganization(o.orgSlug, at);
  const userId = await store.ensureUser(orgId, o.userName, at);
  const key = o.key ?? generateApiKey();
  const id = await store.createApiKey({
    orgId,
    userId,
    name: o.name,
    prefix: keyDisplayPrefix(key),
    keyHash: hashApiKey(key),
    createdAt: at,
    expiresAt: o.expiresAt,
  });
  return { id, key };
}
