/**
 * The roles a user holds in an organization, narrowest first: viewers read, members also
 * create and change runs, admins also manage members, others' keys and projects, owners
 * also manage admins and the organization (docs/api.md §16).
 */
export const ROLES = ['viewer', 'member', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

/** The role's place in ROLES (0 for viewer); -1 for text that is no role. */
export const roleRank = (role: string): number => ROLES.indexOf(role as Role);

/** True when `text` names a role. */
export const isRole = (text: unknown): text is Role => typeof text === 'string' && roleRank(text) >= 0;

/** True when `role` may do what `needed` may. */
export const atLeast = (role: Role, needed: Role): boolean => roleRank(role) >= roleRank(needed);

/** The narrower of a user's role and a key's cap (null: the key has none). */
export const narrower = (userRole: Role, keyRole: Role | null): Role =>
  keyRole !== null && roleRank(keyRole) < roleRank(userRole) ? keyRole : userRole;
