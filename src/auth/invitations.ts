/**
 * Invitations: single-use links, valid 7 days, to join an organization with a role (or, for
 * the first owner, to set a password). Only the SHA-256 of a link's token is stored; the link
 * is answered once (and mailed when SMTP is configured).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Role } from '../domain/roles.js';
import type { Principal } from '../domain/types.js';
import { badRequest, forbidden, forbiddenRole } from '../errors.js';
import { checkKeyName } from '../services/api-keys.js';
import type { Ctx, Deps } from '../services/context.js';
import type { SessionAuthenticator } from '../services/session-authenticator.js';
import type { MetadataStore } from '../store/metadata-store.js';
import { normalizeEmail } from './accounts.js';
import { mayManageRole } from './member-rules.js';
import { checkNewPassword, hashPassword, verifyPassword } from './passwords.js';

/** How long an invitation link works. */
export const INVITATION_TTL_MS = 7 * 86_400_000;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');
const INVALID = 'this invitation link is unknown, already used or expired';

/** The dashboard page a link opens; the token rides in the fragment, which browsers never send. */
export const invitationUrl = (publicUrl: string, token: string): string =>
  `${publicUrl.replace(/\/+$/, '')}/join#token=${token}`;

/** Stores a new invitation; returns its link and expiry. */
export async function storeInvitation(
  store: MetadataStore,
  publicUrl: string,
  i: { orgId: number; email: string | null; role: Role; userId: number | null; invitedBy: number | null },
): Promise<{ url: string; expiresAt: number }> {
  const token = randomBytes(32).toString('base64url');
  const createdAt = Date.now();
  const expiresAt = createdAt + INVITATION_TTL_MS;
  await store.createInvitation({ tokenHash: hashToken(token), ...i, createdAt, expiresAt });
  return { url: invitationUrl(publicUrl, token), expiresAt };
}

/**
 * Invites `email` into the requester's organization with `role`; throws FORBIDDEN_ROLE for a
 * role the requester may not give (an admin gives viewer and member; an owner any role).
 */
export async function inviteMember(ctx: Ctx, input: { email: string; role: Role }) {
  if (!mayManageRole(ctx.principal.role, input.role)) {
    throw forbiddenRole(`a ${ctx.principal.role} cannot invite a ${input.role}`);
  }
  const email = normalizeEmail(input.email);
  const { orgId, userId } = ctx.principal;
  const made = await storeInvitation(ctx.deps.metadata, ctx.deps.config.publicUrl, {
    orgId,
    email,
    role: input.role,
    userId: null,
    invitedBy: userId,
  });
  await audit(ctx.deps.metadata, ctx.principal, 'member.invite', `email:${email}`, input.role);
  return { ...made, email };
}

/**
 * Accepts an invitation: a new user is made with `name` and `password` (an existing user of
 * that email must give its own password, FORBIDDEN otherwise, and keeps it); the link is used
 * up only when all checks pass. Throws BAD_REQUEST for an unknown, used or expired link, a
 * bad name or password. Returns a session of the user in the organization.
 */
export async function acceptInvitation(
  deps: Deps,
  sessions: SessionAuthenticator,
  input: { token: string; name: string; password: string; email?: string | null },
): Promise<{ principal: Principal; token: string }> {
  if (!TOKEN.test(input.token)) throw badRequest(INVALID);
  const hash = hashToken(input.token);
  const store = deps.metadata;
  const found = await store.findInvitation(hash, Date.now());
  if (!found) throw badRequest(INVALID);
  const name = checkKeyName(input.name);
  checkNewPassword(input.password);
  const email = found.email ?? (input.email ? normalizeEmail(input.email) : undefined);
  if (email === undefined) throw badRequest('email is required: this link sets the first owner’s sign-in');
  const existing = await store.findUserByEmail(email);
  if (existing && existing.id !== found.userId && existing.passwordHash !== null) {
    if (!(await verifyPassword(input.password, existing.passwordHash))) {
      throw forbidden(`${email} already has an account: give its password to join`);
    }
  }
  const used = await store.useInvitation(hash, Date.now());
  if (!used) throw badRequest(INVALID);
  const passwordHash = await hashPassword(input.password, deps.config.passwordCost);
  let userId: number;
  if (used.userId !== null) {
    userId = used.userId;
    await store.updateAccount(userId, { email, displayName: name, passwordHash });
    await store.setMemberRole(used.orgId, userId, used.role, Date.now());
  } else if (existing) {
    userId = existing.id;
    if (existing.passwordHash === null) await store.updateAccount(userId, { displayName: name, passwordHash });
    await store.setMemberRole(used.orgId, userId, used.role, Date.now());
  } else {
    const at = Date.now();
    userId = await store.createAccount({
      orgId: used.orgId,
      email,
      displayName: name,
      passwordHash,
      role: used.role,
      at,
    });
  }
  return sessions.signInUser(userId, used.orgId);
}

/** Appends to the organization's audit log as the principal (user and key). */
export async function audit(
  store: MetadataStore,
  p: Principal,
  action: string,
  subject: string,
  detail: string | null,
): Promise<void> {
  await store.addAuditEvent({
    orgId: p.orgId,
    at: Date.now(),
    actorUserId: p.userId,
    actorKeyId: p.keyId,
    action,
    subject,
    detail,
  });
}
