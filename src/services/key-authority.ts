/**
 * What a key may do with other keys, until there are roles (issue 29 replaces this file):
 * a key makes keys that expire no later than itself, and manages (lists, revokes) only its
 * own user's keys unless its user is the organization's admin (the bootstrap user and users
 * the CLI marks with `keys create --admin`). A dashboard session acts as the key it opened.
 */
import { iso } from '../domain/iso.js';
import type { ApiKeyRecord, Principal } from '../domain/types.js';
import { badRequest } from '../errors.js';

/** True when the principal may see and revoke this key of its organization. */
export const mayManageKey = (principal: Principal, key: ApiKeyRecord): boolean =>
  principal.admin || key.userId === principal.userId;

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
