/**
 * The members of an organization: listing, role changes and removal (member-rules.ts says
 * who may), each change written to the audit log. An organization keeps at least one owner.
 */
import type { Role } from '../domain/roles.js';
import type { AuditEvent, Member } from '../domain/types.js';
import { conflict, forbiddenRole, notFound } from '../errors.js';
import type { Ctx } from '../services/context.js';
import { audit } from './invitations.js';
import { mayManageRole } from './member-rules.js';

/** The requester's organization's members, oldest first (at most 1,000). */
export const listOrgMembers = (ctx: Ctx): Promise<Member[]> => ctx.deps.metadata.listMembers(ctx.principal.orgId);

/** The member's current role; NOT_FOUND when the user is no member of the requester's organization. */
async function roleOf(ctx: Ctx, userId: number): Promise<Role> {
  const role = await ctx.deps.metadata.findMemberRole(ctx.principal.orgId, userId);
  if (!role) throw notFound(`member ${userId} not found`);
  return role;
}

/** Throws CONFLICT when taking `userId`'s owner role away would leave the organization without one. */
async function keepAnOwner(ctx: Ctx, current: Role, next: Role | null): Promise<void> {
  if (current !== 'owner' || next === 'owner') return;
  if ((await ctx.deps.metadata.countOwners(ctx.principal.orgId)) <= 1) {
    throw conflict('an organization keeps at least one owner: make another member owner first');
  }
}

/**
 * Gives a member a new role; throws NOT_FOUND for a non-member, FORBIDDEN_ROLE when the
 * requester may not manage the member's role or the new one, CONFLICT for the last owner.
 * Returns the member as listed.
 */
export async function changeMemberRole(ctx: Ctx, userId: number, role: Role): Promise<Member> {
  const current = await roleOf(ctx, userId);
  if (!mayManageRole(ctx.principal.role, current) || !mayManageRole(ctx.principal.role, role)) {
    throw forbiddenRole(`a ${ctx.principal.role} cannot change a ${current} into a ${role}`);
  }
  await keepAnOwner(ctx, current, role);
  if (current !== role) {
    await ctx.deps.metadata.setMemberRole(ctx.principal.orgId, userId, role, Date.now());
    await audit(ctx.deps.metadata, ctx.principal, 'member.role', `user:${userId}`, `${current} -> ${role}`);
  }
  const members = await ctx.deps.metadata.listMembers(ctx.principal.orgId);
  return members.find((m) => m.userId === userId)!;
}

/**
 * Removes a member: its keys of the organization are revoked and its sessions there end
 * (every server refuses them within a second: their caches live one second). Throws like
 * changeMemberRole.
 */
export async function removeOrgMember(ctx: Ctx, userId: number): Promise<void> {
  const current = await roleOf(ctx, userId);
  if (!mayManageRole(ctx.principal.role, current)) {
    throw forbiddenRole(`a ${ctx.principal.role} cannot remove a ${current}`);
  }
  await keepAnOwner(ctx, current, null);
  if (await ctx.deps.metadata.removeMember(ctx.principal.orgId, userId, Date.now())) {
    await audit(ctx.deps.metadata, ctx.principal, 'member.remove', `user:${userId}`, current);
  }
}

/** The organization's audit log before `beforeId`, newest first, at most `limit` (≤ 500). */
export const listAudit = (ctx: Ctx, o: { beforeId?: number; limit: number }): Promise<AuditEvent[]> =>
  ctx.deps.metadata.listAuditEvents(ctx.principal.orgId, o);
