import { Type, type Static } from '@sinclair/typebox';
import { ROLES } from '../../domain/roles.js';
import { Nullable, StringEnum } from '../schema-helpers.js';

/** What a key is now: revoked, past its expiry, or usable. */
export const KEY_STATUSES = ['ACTIVE', 'REVOKED', 'EXPIRED'] as const;

const keyFields = {
  id: Type.Integer(),
  name: Type.String(),
  prefix: Type.String({ description: 'The first characters of the key: enough to recognise it, never to use it.' }),
  userName: Type.String({ description: 'The user the key acts as.' }),
  role: StringEnum(ROLES, {
    description: 'The role the key acts with: its user’s, or the narrower one chosen when it was made.',
  }),
  createdAt: Type.String(),
  lastUsedAt: Nullable(Type.String({ description: 'Recorded at most once a minute.' })),
  expiresAt: Nullable(Type.String()),
  revokedAt: Nullable(Type.String()),
  status: StringEnum(KEY_STATUSES),
  current: Type.Boolean({ description: 'True for the key this request was made with (or its session’s key).' }),
};

/** One key as the API shows it: never the key itself nor its hash. */
export const ApiKey = Type.Object(keyFields);
export type ApiKey = Static<typeof ApiKey>;

/** The answer of POST /api/keys: the record and, this once, the key in full. */
export const CreatedKey = Type.Object({ ...keyFields, key: Type.String() });
export type CreatedKey = Static<typeof CreatedKey>;

/** The answer of GET /api/keys: newest first. */
export const ApiKeyList = Type.Object({ keys: Type.Array(ApiKey) });
export type ApiKeyList = Static<typeof ApiKeyList>;
