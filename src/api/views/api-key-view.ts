import { iso } from '../../domain/iso.js';
import { narrower } from '../../domain/roles.js';
import type { ApiKeyRecord } from '../../domain/types.js';
import type { ApiKey } from '../schemas/api-keys.js';

const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

/** A key record as answered: ISO times, its status at `now`, whether it is the request's own key. */
export function apiKeyView(k: ApiKeyRecord, currentKeyId: number | null, now: number): ApiKey {
  const status: ApiKey['status'] =
    k.revokedAt !== null ? 'REVOKED' : k.expiresAt !== null && k.expiresAt < now ? 'EXPIRED' : 'ACTIVE';
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    userName: k.userName,
    // A user who is no longer a member has no role; its keys are refused (and revoked).
    role: k.userRole === null ? (k.role ?? 'viewer') : narrower(k.userRole, k.role),
    createdAt: iso(k.createdAt),
    lastUsedAt: isoOrNull(k.lastUsedAt),
    expiresAt: isoOrNull(k.expiresAt),
    revokedAt: isoOrNull(k.revokedAt),
    status,
    current: k.id === currentKeyId,
  };
}
