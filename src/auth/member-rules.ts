/**
 * Who manages whom: an owner manages everyone (other owners included); an admin manages
 * members and viewers, and gives only those roles; nobody else manages anyone.
 */
import { atLeast, roleRank, type Role } from '../domain/roles.js';

/** True when a user with role `actor` may give, change or take away role `target`. */
export const mayManageRole = (actor: Role, target: Role): boolean =>
  actor === 'owner' || (atLeast(actor, 'admin') && roleRank(target) < roleRank(actor));
