import { Type } from '@sinclair/typebox';
import { changePassword, endOwnSession, getAccount, listOwnSessions, switchOrganization } from '../../auth/accounts.js';
import type { SessionAuthenticator } from '../../services/session-authenticator.js';
import { sessionCookie } from '../session-cookie.js';
import { SwitchBody } from '../schemas/members.js';
import { Session } from '../schemas/session.js';
import { validAnswer } from './auth.js';
import type { SignInLimiter } from '../../auth/sign-in-limiter.js';
import { iso } from '../../domain/iso.js';
import type { Deps } from '../../services/context.js';
import type { App } from '../app-types.js';
import { ctxOf } from '../hooks/auth-hook.js';
import { Account, ChangePasswordBody, SessionList } from '../schemas/account.js';

/**
 * GET /api/account (who is signed in), POST /api/account/organization (switch),
 * POST /api/account/password, GET /api/account/sessions and DELETE
 * /api/account/sessions/{sessionId}: every user's own, so every role may call them.
 */
export function registerAccountRoutes(
  app: App,
  deps: Deps,
  sessions: SessionAuthenticator,
  limiter: SignInLimiter,
): void {
  const secure = deps.config.publicUrl.startsWith('https://');

  app.post(
    '/api/account/organization',
    {
      config: { role: 'viewer' },
      schema: {
        description:
          'Switches a password session to another organization of its user (a new session cookie). A key, or a key’s ' +
          'session, acts in its own organization only (another one is a 400).',
        body: SwitchBody,
        response: { 200: Session },
      },
    },
    async (request, reply) => {
      const ctx = ctxOf(deps, request);
      const { principal, token } = await switchOrganization(
        ctx,
        sessions,
        request.body.organization,
        request.sessionHash,
      );
      if (token !== undefined) void reply.header('set-cookie', sessionCookie(token, sessions.maxAgeSeconds, secure));
      return validAnswer(principal);
    },
  );

  app.get('/api/account', { config: { role: 'viewer' }, schema: { response: { 200: Account } } }, async (request) => {
    const ctx = ctxOf(deps, request);
    const { user, memberships } = await getAccount(ctx);
    const orgs = memberships.map((m) => ({ id: String(m.orgId), slug: m.orgSlug, role: m.role }));
    return {
      id: String(user.id),
      name: user.displayName ?? user.name,
      email: user.email,
      hasPassword: user.passwordHash !== null,
      organization: { id: String(ctx.principal.orgId), slug: ctx.principal.orgSlug, role: ctx.principal.role },
      organizations: orgs,
      viaKey: ctx.principal.keyId !== null,
    };
  });

  app.post(
    '/api/account/password',
    {
      config: { role: 'viewer' },
      schema: {
        description:
          'Changes the requesting user’s password (currentPassword must be it: 403 otherwise, rate-limited like ' +
          'sign-ins); ends the user’s other password sessions.',
        body: ChangePasswordBody,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await changePassword(ctxOf(deps, request), limiter, {
        ...request.body,
        address: request.ip,
        sessionHash: request.sessionHash,
      });
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/account/sessions',
    { config: { role: 'viewer' }, schema: { response: { 200: SessionList } } },
    async (request) => {
      const list = await listOwnSessions(ctxOf(deps, request), request.sessionHash);
      return {
        sessions: list.map((s) => ({
          id: s.id,
          keyName: s.keyName,
          organization: s.orgSlug,
          createdAt: iso(s.createdAt),
          lastUsedAt: iso(s.lastUsedAt),
          expiresAt: iso(s.expiresAt),
          current: s.current,
        })),
      };
    },
  );

  app.delete(
    '/api/account/sessions/:sessionId',
    {
      config: { role: 'viewer' },
      schema: {
        description: 'Ends one of the requesting user’s sessions, or of its keys (again, or not theirs: no change).',
        params: Type.Object({ sessionId: Type.String({ pattern: '^[0-9a-f]{16}$' }) }),
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await endOwnSession(ctxOf(deps, request), request.params.sessionId);
      return reply.status(204).send(null);
    },
  );
}
