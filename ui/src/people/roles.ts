/** Roles in the dashboard: who may manage members, and which roles each may grant (docs/api.md §16). */
import type { Role } from '../api/member-queries';

/** Every role, widest first, with what it may do. */
export const ROLE_CHOICES: readonly { role: Role; text: string }[] = [
  { role: 'owner', text: 'everything, including admins' },
  { role: 'admin', text: 'manages members, keys, projects' },
  { role: 'member', text: 'creates and changes runs' },
  { role: 'viewer', text: 'reads only' },
];

/**
 * True for the roles that administer the organization (owners and admins): members,
 * webhooks, alert rules and project settings; the API refuses others with FORBIDDEN_ROLE.
 */
export const isAdminRole = (role: Role): boolean => role === 'owner' || role === 'admin';

/** The roles `role` may invite with or give: an owner any, an admin members and viewers, others none. */
export function rolesToGrant(role: Role): Role[] {
  if (role === 'owner') return ['owner', 'admin', 'member', 'viewer'];
  if (role === 'admin') return ['member', 'viewer'];
  return [];
}
