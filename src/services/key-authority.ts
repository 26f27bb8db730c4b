/**
 * What a key may do with other keys: a key makes keys that expire no later than itself and
 * act with no wider a role than itself; it manages (lists, revokes) its own user's keys,
 * and an admin also those of users with a narrower role than its own (an owner: every
 * key of the organization). A dashboard session acts as the key it opened.
 */
import { iso } from '../domain/iso.js';
import { atLeast, roleRank, type Role } from '../domain/roles.js';
import type { ApiKeyRecord, Principal } from '../domain/types.js';
import { badRequest, forbiddenRole } from '../errors.js';

/** True when the principal may see and revoke this key of its organization. */
export function mayManageKey(principal: Principal, key: ApiKeyRecord): boolean {
  if (key.userId === principal.userId) return true;
  if (!atLeast(principal.role, 'admin')) return false;
  return principal.role === 'owner' || roleRank(key.userRole ?? 'viewer') < roleRank(principal.role);
}

/**
 * The expiry (ms, or null for never) a key made by this principal gets when `asked` is asked
 * for; throws BAD_REQUEST when that is later than the principal's own key's expiry (never
 * included), with that expiry in the sentence.
 */
export function childKeyExpiry(principal: Principal, asked: number | null): number | null {
  const limit = principal.keyExpiresAt;
  if (limit === null || (asked !== null && asked <= limit)) return asked;
  throw badRequest(
    `expiresAt must be no later than ${iso(limit)}, when the key making this request expires ` +
      '(a key cannot outlive the key that made it)',
  );
}

/**
 * The role cap a key made by this principal gets when `asked` is asked for (undefined: the
 * making key's own cap); throws FORBIDDEN_ROLE when `asked` is wider than the principal's role.
 */
export function childKeyRole(principal: Principal, asked: Role | undefined): Role | null {
  if (asked === undefined) return principal.keyRole;
  if (!atLeast(principal.role, asked)) {
    throw forbiddenRole(`role ${asked} is wider than ${principal.role}, the role of the key making this request`);
  }
  return asked;
}
