/**
 * Accounts: password sign-in into the same cookie sessions as API keys, password changes,
 * and a user's own sessions. Passwords are never stored, logged or answered: only their
 * scrypt hashes (passwords.ts) are kept.
 */
import type { Membership, Principal, SessionSummary } from '../domain/types.js';
import { badRequest, forbidden, notFound, unauthorized } from '../errors.js';
import type { Ctx, Deps } from '../services/context.js';
import type { SessionAuthenticator } from '../services/session-authenticator.js';
import { checkNewPassword, hashPassword, verifyPassword } from './passwords.js';
import type { SignInLimiter } from './sign-in-limiter.js';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** An email as stored: trimmed, lower case; throws BAD_REQUEST for one that is no email (at most 254 characters). */
export function normalizeEmail(email: string): string {
  const e = email.trim().toLowerCase();
  if (e.length > 254 || !EMAIL.test(e)) throw badRequest('email must be an email address such as ann@example.com');
  return e;
}

/** The organization a password sign-in lands in: the user's home one, else its first membership. */
export const landing = (homeOrgId: number, memberships: Membership[]): Membership | undefined =>
  memberships.find((m) => m.orgId === homeOrgId) ?? memberships[0];

/**
 * Signs in by email and password from `address`: checks the limiter first (429 while the
 * account or address is locked), then the password; a wrong one, an unknown email or a user
 * without a password or membership is one 401 ('Wrong email or password') and one failure.
 * Returns the session's principal and token.
 */
export async function signInWithPassword(
  deps: Deps,
  sessions: SessionAuthenticator,
  limiter: SignInLimiter,
  input: { email: string; password: string; address: string },
): Promise<{ principal: Principal; token: string }> {
  const email = input.email.trim().toLowerCase();
  await limiter.check(email, input.address);
  const user = email.length <= 254 ? await deps.metadata.findUserByEmail(email) : undefined;
  const ok = await verifyPassword(input.password, user?.passwordHash, deps.config.passwordCost);
  const org = ok && user ? landing(user.homeOrgId, await deps.metadata.listMemberships(user.id)) : undefined;
  if (!user || !org) {
    await limiter.failed(email, input.address);
    throw unauthorized('Wrong email or password');
  }
  await limiter.succeeded(email);
  return sessions.signInUser(user.id, org.orgId);
}

/**
 * Changes the requesting user's password: `currentPassword` must be its password (FORBIDDEN
 * otherwise, counted by the limiter like a failed sign-in; BAD_REQUEST for a user without
 * one, who sets it through an invitation link). Ends the user's other password sessions.
 */
export async function changePassword(
  ctx: Ctx,
  limiter: SignInLimiter,
  input: { currentPassword: string; newPassword: string; address: string; sessionHash: string | null },
): Promise<void> {
  const user = await ctx.deps.metadata.findUser(ctx.principal.userId);
  if (!user?.passwordHash || !user.email) {
    throw badRequest('this user has no password yet; set one through an invitation link');
  }
  await limiter.check(user.email, input.address);
  if (!(await verifyPassword(input.currentPassword, user.passwordHash))) {
    await limiter.failed(user.email, input.address);
    throw forbidden('currentPassword is not this user’s password');
  }
  checkNewPassword(input.newPassword);
  await ctx.deps.metadata.updateAccount(user.id, {
    passwordHash: await hashPassword(input.newPassword, ctx.deps.config.passwordCost),
  });
  await ctx.deps.metadata.deleteUserSessions(user.id, { except: input.sessionHash ?? '' });
}

/** The requesting user's unexpired sessions (and its keys'), newest first, the request's own marked. */
export async function listOwnSessions(
  ctx: Ctx,
  sessionHash: string | null,
): Promise<(SessionSummary & { current: boolean })[]> {
  const list = await ctx.deps.metadata.listUserSessions(ctx.principal.userId, Date.now());
  return list.map((s) => ({ ...s, current: sessionHash !== null && sessionHash.startsWith(s.id) }));
}

/** Ends one of the requesting user's sessions (or its keys'), if it has one of that id (again: no change). */
export async function endOwnSession(ctx: Ctx, id: string): Promise<void> {
  await ctx.deps.metadata.deleteUserSessions(ctx.principal.userId, { id });
}

/** The requesting user's account: id, email, name, its memberships and the organization it acts in. */
export async function getAccount(ctx: Ctx) {
  const user = await ctx.deps.metadata.findUser(ctx.principal.userId);
  if (!user) throw notFound('user not found');
  return {
    user,
    memberships: await ctx.deps.metadata.listMemberships(user.id),
  };
}

/**
 * Moves the requester's session to another organization of its user (a new session there;
 * this one ends). A key (or a key's session) belongs to one organization: switching it to
 * that one answers as it is, to another is a BAD_REQUEST. NOT_FOUND when the user is no
 * member of `slug`. Returns the principal there and, for a new session, its token.
 */
export async function switchOrganization(
  ctx: Ctx,
  sessions: SessionAuthenticator,
  slug: string,
  sessionHash: string | null,
): Promise<{ principal: Principal; token?: string }> {
  const { principal } = ctx;
  if (slug === principal.orgSlug) return { principal };
  const target = (await ctx.deps.metadata.listMemberships(principal.userId)).find((m) => m.orgSlug === slug);
  if (!target) throw notFound(`organization ${slug} not found`);
  if (principal.keyId !== null || sessionHash === null) {
    throw badRequest('an API key acts in its own organization only: sign in with your password to switch');
  }
  const opened = await sessions.signInUser(principal.userId, target.orgId);
  await ctx.deps.metadata.deleteSession(sessionHash);
  return opened;
}
