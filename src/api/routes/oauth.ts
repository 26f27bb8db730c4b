import { Type } from '@sinclair/typebox';
import type { OAuthOnDemand } from '../../auth/oauth/oauth-on-demand.js';
import { iso } from '../../domain/iso.js';
import type { Deps } from '../../services/context.js';
import type { App } from '../app-types.js';
import { ctxOf } from '../hooks/auth-hook.js';
import { Success } from '../schemas/common.js';
import { ConnectedAppList, ConsentDecision, ConsentRedirect, ConsentRequest, RevokeApp } from '../schemas/oauth.js';

const MAX_APPS = 200;
const UidParams = Type.Object({ uid: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }) });

/**
 * The dashboard's side of the OAuth 2.1 authorization server (docs/api.md §18): the consent
 * step of an authorization (GET and POST /api/oauth/consent/{uid}) and the requester's
 * connected apps (GET /api/oauth/apps, POST /api/oauth/apps/revoke).
 */
export function registerOAuthRoutes(app: App, deps: Deps, oauth: OAuthOnDemand): void {
  app.get(
    '/api/oauth/consent/:uid',
    {
      config: { role: 'viewer' },
      schema: {
        description:
          'The authorization request waiting for this browser’s consent: its client, the redirect URI’s host ' +
          'and the scopes asked. 404 for an unknown or expired request, or one started in another browser.',
        params: UidParams,
        response: { 200: ConsentRequest },
      },
    },
    async (request, reply) => {
      ctxOf(deps, request);
      return (await oauth.get()).consent.details(request.params.uid, { req: request.raw, res: reply.raw });
    },
  );

  app.post(
    '/api/oauth/consent/:uid',
    {
      config: { role: 'viewer' },
      schema: {
        description:
          'Allows or denies the request; the browser then goes to `redirectTo`, which ends at the client with ' +
          'a code or `access_denied`. Allow records a grant acting as the requester in this organization ' +
          '(through the sign-in key of the session, none for a password session).',
        params: UidParams,
        body: ConsentDecision,
        response: { 200: ConsentRedirect },
      },
    },
    async (request, reply) => {
      const { principal } = ctxOf(deps, request);
      const raw = { req: request.raw, res: reply.raw };
      return {
        redirectTo: await (await oauth.get()).consent.decide(request.params.uid, request.body.decision, principal, raw),
      };
    },
  );

  app.get(
    '/api/oauth/apps',
    {
      config: { role: 'viewer' },
      schema: {
        description: `The clients the requester allowed in this organization, latest used first (at most ${MAX_APPS}).`,
        response: { 200: ConnectedAppList },
      },
    },
    async (request) => {
      const { principal } = ctxOf(deps, request);
      const apps = await (await oauth.get()).listApps(principal.userId, principal.orgId, MAX_APPS);
      return {
        apps: apps.map((a) => ({
          ...a,
          authorizedAt: iso(a.authorizedAt),
          lastUsedAt: a.lastUsedAt === null ? null : iso(a.lastUsedAt),
        })),
      };
    },
  );

  app.post(
    '/api/oauth/apps/revoke',
    {
      config: { role: 'viewer' },
      schema: {
        description:
          'Ends the requester’s grants of a client in this organization and every token of them at once; ' +
          'a client with none is already revoked (200 too).',
        body: RevokeApp,
        response: { 200: Success },
      },
    },
    async (request) => {
      const { principal } = ctxOf(deps, request);
      await (await oauth.get()).revokeApp(principal.userId, principal.orgId, request.body.clientId);
      return { success: true };
    },
  );
}
