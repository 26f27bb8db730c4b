import { Type } from '@sinclair/typebox';
import { changePassword, endOwnSession, getAccount, listOwnSessions } from '../../auth/accounts.js';
import type { SignInLimiter } from '../../auth/sign-in-limiter.js';
import { iso } from '../../domain/iso.js';
import type { Deps } from '../../services/context.js';
import type { App } from '../app-types.js';
import { ctxOf } from '../hooks/auth-hook.js';
import { Account, ChangePasswordBody, SessionList } from '../schemas/account.js';

/**
 * GET /api/account (who is signed in), POST /api/account/password, GET /api/account/sessions
 * and DELETE /api/account/sessions/{sessionId}: every user's own, so every role may call them.
 */
export function registerAccountRoutes(app: App, deps: Deps, limiter: SignInLimiter): void {
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
