import { Type, type Static } from '@sinclair/typebox';
import { ROLES } from '../../domain/roles.js';
import { Nullable, StringEnum } from '../schema-helpers.js';

/** A password as sent: never answered, logged or echoed in an error. */
const Password = Type.String({ minLength: 1, maxLength: 1024 });

/** The body of POST /api/session: an API key, or an email and password. */
export const SignInBody = Type.Union([
  Type.Object({ apiKey: Type.String() }),
  Type.Object({ email: Type.String({ minLength: 1, maxLength: 320 }), password: Password }),
]);
export type SignInBody = Static<typeof SignInBody>;

/** The body of POST /api/account/password. */
export const ChangePasswordBody = Type.Object({
  currentPassword: Password,
  newPassword: Type.String({ minLength: 1, maxLength: 1024, description: '10 to 256 characters.' }),
});

/** An organization the user belongs to, with its role there. */
export const OrgMembership = Type.Object({ id: Type.String(), slug: Type.String(), role: StringEnum(ROLES) });
export type OrgMembership = Static<typeof OrgMembership>;

/** The answer of GET /api/account: who is signed in, acting in which organization with which role. */
export const Account = Type.Object({
  id: Type.String(),
  name: Type.String({ description: 'The display name (the user name for users made by the CLI).' }),
  email: Nullable(Type.String()),
  hasPassword: Type.Boolean(),
  organization: OrgMembership,
  organizations: Type.Array(OrgMembership, { maxItems: 1000 }),
  viaKey: Type.Boolean({ description: 'True when the request acts through an API key (or its session).' }),
});
export type Account = Static<typeof Account>;

/** One session of the user or its keys. */
export const SessionInfo = Type.Object({
  id: Type.String(),
  keyName: Nullable(Type.String({ description: 'The key that signed in; null for a password sign-in.' })),
  organization: Type.String(),
  createdAt: Type.String(),
  lastUsedAt: Type.String(),
  expiresAt: Type.String(),
  current: Type.Boolean(),
});

/** The answer of GET /api/account/sessions: newest first, at most 200. */
export const SessionList = Type.Object({ sessions: Type.Array(SessionInfo, { maxItems: 200 }) });
export type SessionList = Static<typeof SessionList>;
