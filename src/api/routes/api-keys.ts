import { Type } from '@sinclair/typebox';
import { createOrgKey, listOrgKeys, revokeOrgKey } from '../../services/api-keys.js';
import type { Deps } from '../../services/context.js';
import type { App } from '../app-types.js';
import { ctxOf } from '../hooks/auth-hook.js';
import { Nullable, Opt, StringEnum } from '../schema-helpers.js';
import { apiKeyView, KEY_STATUSES } from '../views/api-key-view.js';

const keyFields = {
  id: Type.Integer(),
  name: Type.String(),
  prefix: Type.String({ description: 'The first characters of the key: enough to recognise it, never to use it.' }),
  userName: Type.String({ description: 'The user the key acts as.' }),
  createdAt: Type.String(),
  lastUsedAt: Nullable(Type.String({ description: 'Recorded at most once a minute.' })),
  expiresAt: Nullable(Type.String()),
  revokedAt: Nullable(Type.String()),
  status: StringEnum(KEY_STATUSES),
  current: Type.Boolean({ description: 'True for the key this request was made with (or its session’s key).' }),
};
/** One key as the API shows it: never the key itself nor its hash. */
const KeySchema = Type.Object(keyFields);

const CreateKeyBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100, description: 'Printable, one line.' }),
  expiresAt: Opt(
    Type.String({
      maxLength: 64,
      description:
        'ISO 8601, in the future (a date alone is its midnight UTC), and no later than the requesting key’s expiry.',
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
      schema: {
        description:
          'The requesting user’s keys, or every key of the organization when that user is its admin; newest first.',
        response: { 200: Type.Object({ keys: Type.Array(KeySchema) }) },
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
      schema: {
        description:
          'Creates a key for the requesting user; `key` is answered only here and is never stored. The key ' +
          'expires no later than the key making the request (a session: the key that opened it); asking ' +
          'for a later expiry, or none, from an expiring key is a 400.',
        body: CreateKeyBody,
        response: { 200: Type.Object({ ...keyFields, key: Type.String() }) },
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
      schema: {
        description:
          'Revokes a key of the requesting user, or of the organization when that user is its admin (another ' +
          'user’s key is a 404; again: no change). Requests with it, and sessions signed in with it, are ' +
          'refused within a second, this request’s own key included. keyId: decimal digits, no leading zeros.',
        params: Type.Object({ keyId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) }),
        response: { 200: KeySchema },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const record = await revokeOrgKey(ctx, request.params.keyId);
      return apiKeyView(record, ctx.principal.keyId, Date.now());
    },
  );
}
