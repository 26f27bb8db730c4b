import { Type } from '@sinclair/typebox';
import { createOrgKey, listOrgKeys, revokeOrgKey } from '../../services/api-keys.js';
import type { Deps } from '../../services/context.js';
import type { App } from '../app-types.js';
import { ctxOf } from '../hooks/auth-hook.js';
import { ROLES } from '../../domain/roles.js';
import { Opt, StringEnum } from '../schema-helpers.js';
import { ApiKey, ApiKeyList, CreatedKey } from '../schemas/api-keys.js';
import { apiKeyView } from '../views/api-key-view.js';

const CreateKeyBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100, description: 'Printable, one line.' }),
  expiresAt: Opt(
    Type.String({
      maxLength: 64,
      description:
        'ISO 8601, in the future (a date alone is its midnight UTC), and no later than the requesting key’s expiry.',
    }),
  ),
  role: Opt(
    StringEnum(ROLES, {
      description:
        'The role the key acts with, no wider than the requester’s (403 FORBIDDEN_ROLE); by default the requesting key’s.',
    }),
  ),
});

/**
 * GET /api/keys (the keys the requester may manage, newest first), POST /api/keys (a new key
 * for the requesting user, answered once in clear) and POST /api/keys/{keyId}/revoke. Who may
 * manage which key: services/key-authority.ts.
 */
export function registerApiKeyRoutes(app: App, deps: Deps): void {
  app.get(
    '/api/keys',
    {
      config: { role: 'viewer' },
      schema: {
        description:
          'The requesting user’s keys, or every key of the organization when that user is its admin; newest first.',
        response: { 200: ApiKeyList },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const now = Date.now();
      return { keys: (await listOrgKeys(ctx)).map((k) => apiKeyView(k, ctx.principal.keyId, now)) };
    },
  );

  app.post(
    '/api/keys',
    {
      config: { role: 'viewer' },
      schema: {
        description:
          'Creates a key for the requesting user; `key` is answered only here and is never stored. The key ' +
          'expires no later than the key making the request (a session: the key that opened it); asking ' +
          'for a later expiry, or none, from an expiring key is a 400.',
        body: CreateKeyBody,
        response: { 200: CreatedKey },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const { key, record } = await createOrgKey(ctx, request.body);
      return { ...apiKeyView(record, ctx.principal.keyId, Date.now()), key };
    },
  );

  app.post(
    '/api/keys/:keyId/revoke',
    {
      config: { role: 'viewer' },
      schema: {
        description:
          'Revokes a key of the requesting user, or of the organization when that user is its admin (another ' +
          'user’s key is a 404; again: no change). Requests with it, and sessions signed in with it, are ' +
          'refused within a second, this request’s own key included. keyId: decimal digits, no leading zeros.',
        params: Type.Object({ keyId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) }),
        response: { 200: ApiKey },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const record = await revokeOrgKey(ctx, request.params.keyId);
      return apiKeyView(record, ctx.principal.keyId, Date.now());
    },
  );
}
