import { timingSafeEqual } from 'node:crypto';
import { principalOf } from '../domain/principal.js';
import type { ApiKeyRecord, Principal } from '../domain/types.js';
import { unauthorized } from '../errors.js';
import type { MetadataStore } from '../store/metadata-store.js';
import { hashApiKey } from './api-keys.js';

const CACHE_MS = 1000;
const TOUCH_EVERY_MS = 60_000;

/**
 * Resolves `Authorization: Bearer <key>` headers to a Principal. Key records are cached
 * for at most one second, so a revocation or expiry takes effect within a second.
 */
export class Authenticator {
  private readonly cache = new Map<string, { record: ApiKeyRecord | undefined; until: number }>();
  private readonly touched = new Map<number, number>();

  constructor(
    private readonly store: MetadataStore,
    private readonly onTouchError: (err: unknown) => void = () => {},
  ) {}

  /** The principal of a header; throws UNAUTHORIZED with one of the four reasons of docs/api.md §2. */
  async authenticate(header: string | undefined): Promise<Principal> {
    if (header === undefined || header.trim() === '') throw unauthorized('Missing API key');
    const match = /^bearer\s+(\S+)\s*$/i.exec(header.trim());
    if (!match) throw unauthorized('Invalid API key');
    return this.authenticateHash(hashApiKey(match[1]!));
  }

  /** The principal of a key given in clear (a sign-in form): the same checks and reasons as a header. */
  async authenticateKey(key: string): Promise<Principal> {
    if (key.trim() === '') throw unauthorized('Missing API key');
    if (/\s/.test(key.trim())) throw unauthorized('Invalid API key');
    return this.authenticateHash(hashApiKey(key.trim()));
  }

  /**
   * The principal of the key with this SHA-256 (hex), acting with its user's role narrowed by
   * the key's; throws UNAUTHORIZED when it is unknown, revoked, expired or its user is no
   * longer a member (read at most a second ago); records its use at most once a minute.
   */
  async authenticateHash(hash: string): Promise<Principal> {
    const record = await this.lookup(hash);
    if (!record || !timingSafeEqual(Buffer.from(record.keyHash, 'hex'), Buffer.from(hash, 'hex'))) {
      throw unauthorized('Invalid API key');
    }
    const now = Date.now();
    // A key never outlives its user's membership: removal revokes its keys too, and this
    // refuses them even before that write is seen.
    if (record.revokedAt !== null || record.userRole === null) throw unauthorized('API key has been revoked');
    if (record.expiresAt !== null && record.expiresAt < now) throw unauthorized('API key has expired');
    this.touch(record.id, now);
    return principalOf({
      ...record,
      keyId: record.id,
      keyExpiresAt: record.expiresAt,
      memberRole: record.userRole,
      keyRole: record.role,
    });
  }

  private async lookup(hash: string): Promise<ApiKeyRecord | undefined> {
    const now = Date.now();
    const hit = this.cache.get(hash);
    if (hit && hit.until > now) return hit.record;
    const record = await this.store.findApiKeyByHash(hash);
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(hash, { record, until: now + CACHE_MS });
    return record;
  }

  private touch(keyId: number, now: number): void {
    const last = this.touched.get(keyId) ?? 0;
    if (now - last < TOUCH_EVERY_MS) return;
    this.touched.set(keyId, now);
    this.store.touchApiKey(keyId, now).catch(this.onTouchError);
  }
}
