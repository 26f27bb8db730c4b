import { Type } from '@sinclair/typebox';
import { mailInvitation } from '../../auth/invitation-mail.js';
import { acceptInvitation, inviteMember } from '../../auth/invitations.js';
import { changeMemberRole, listAudit, listOrgMembers, removeOrgMember } from '../../auth/members.js';
import { iso } from '../../domain/iso.js';
import type { Member } from '../../domain/types.js';
import type { Deps } from '../../services/context.js';
import type { SessionAuthenticator } from '../../services/session-authenticator.js';
import type { App } from '../app-types.js';
import { ctxOf } from '../hooks/auth-hook.js';
import { assertSameOrigin } from '../same-origin.js';
import { sessionCookie } from '../session-cookie.js';
import { QueryInt } from '../schema-helpers.js';
import {
  AcceptBody,
  AuditList,
  InviteAnswer,
  InviteBody,
  MemberItem,
  MemberList,
  MemberParams,
  RoleBody,
} from '../schemas/members.js';
import { Session } from '../schemas/session.js';
import { validAnswer } from './auth.js';

const memberView = (m: Member): MemberItem => ({ ...m, joinedAt: iso(m.joinedAt) });

/**
 * GET /api/members, POST /api/members/invite, POST /api/members/{userId}/role, DELETE
 * /api/members/{userId}, GET /api/audit (admins and owners) and POST /api/invitations/accept
 * (public: the link is the credential).
 */
export function registerMemberRoutes(app: App, deps: Deps, sessions: SessionAuthenticator): void {
  const secure = deps.config.publicUrl.startsWith('https://');

  app.get(
    '/api/members',
    { config: { role: 'admin' }, schema: { response: { 200: MemberList } } },
    async (request) => ({
      members: (await listOrgMembers(ctxOf(deps, request))).map(memberView),
    }),
  );

  app.post(
    '/api/members/invite',
    {
      config: { role: 'admin' },
      schema: {
        description:
          'Invites an email address with a role (an admin gives viewer or member; an owner any role): a link that ' +
          'works once within 7 days, answered here to pass on.',
        body: InviteBody,
        response: { 200: InviteAnswer },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const made = await inviteMember(ctx, request.body);
      const mail = { to: made.email, orgSlug: ctx.principal.orgSlug, role: request.body.role, ...made };
      const emailed = await mailInvitation(deps.config, mail, (m) => request.log.warn(m));
      return { url: made.url, expiresAt: iso(made.expiresAt), emailed };
    },
  );

  app.post(
    '/api/members/:userId/role',
    {
      config: { role: 'admin' },
      schema: { params: MemberParams, body: RoleBody, response: { 200: MemberItem } },
    },
    async (request) =>
      memberView(await changeMemberRole(ctxOf(deps, request), request.params.userId, request.body.role)),
  );

  app.delete(
    '/api/members/:userId',
    {
      config: { role: 'admin' },
      schema: {
        description:
          'Removes a member: its keys of the organization are revoked and its sessions there end, on every server ' +
          'within a second.',
        params: MemberParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await removeOrgMember(ctxOf(deps, request), request.params.userId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/audit',
    {
      config: { role: 'admin' },
      schema: {
        description: 'Member invitations, removals and role changes (and deletions), newest first.',
        querystring: Type.Object({
          before: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })),
          limit: QueryInt(1, 500, 100),
        }),
        response: { 200: AuditList },
      },
    },
    async (request) => {
      const { before, limit } = request.query;
      const events = await listAudit(ctxOf(deps, request), { beforeId: before, limit });
      return {
        events: events.map((e) => ({ ...e, at: iso(e.at) })),
        nextBefore: events.length === limit ? events[events.length - 1]!.id : null,
      };
    },
  );

  app.post(
    '/api/invitations/accept',
    {
      config: { public: true },
      schema: {
        description:
          'Accepts an invitation link’s token with a name and password, and signs in (a session cookie). A link ' +
          'works once; used or expired ones are a 400.',
        body: AcceptBody,
        response: { 200: Session },
        security: [],
      },
    },
    async (request, reply) => {
      assertSameOrigin(request, deps.config.publicUrl);
      const { principal, token } = await acceptInvitation(deps, sessions, request.body);
      void reply.header('set-cookie', sessionCookie(token, sessions.maxAgeSeconds, secure));
      return validAnswer(principal);
    },
  );
}
