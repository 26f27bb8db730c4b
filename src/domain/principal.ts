import { narrower, type Role } from './roles.js';
import type { Principal } from './types.js';

/** What a principal is made of: the user in an organization, the key it acts through (if any), both roles. */
export interface PrincipalParts {
  orgId: number;
  orgSlug: string;
  userId: number;
  keyId: number | null;
  keyExpiresAt: number | null;
  /** The user's role in the organization now. */
  memberRole: Role;
  /** The key's own cap (null: no key, or a key without one). */
  keyRole: Role | null;
}

/**
 * The principal of a user acting through an API key, an OAuth grant's sign-in key or a
 * password session (no key): the member's role narrowed by the key's cap. With `scopes` (an
 * OAuth access token's), narrowed further to viewer when they lack runs:write.
 */
export function principalOf(parts: PrincipalParts, scopes: readonly string[] | null = null): Principal {
  const role = narrower(parts.memberRole, parts.keyRole);
  return {
    orgId: parts.orgId,
    orgSlug: parts.orgSlug,
    userId: parts.userId,
    keyId: parts.keyId,
    keyExpiresAt: parts.keyExpiresAt,
    role: scopes === null || scopes.includes('runs:write') ? role : narrower(role, 'viewer'),
    keyRole: parts.keyRole,
    scopes,
  };
}
