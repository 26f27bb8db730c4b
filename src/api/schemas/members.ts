import { Type, type Static } from '@sinclair/typebox';
import { ROLES } from '../../domain/roles.js';
import { Nullable, StringEnum } from '../schema-helpers.js';

export const RoleField = StringEnum(ROLES);

/** One member of the organization. */
export const MemberItem = Type.Object({
  userId: Type.Integer(),
  name: Type.String(),
  email: Nullable(Type.String()),
  role: RoleField,
  joinedAt: Type.String(),
});
export type MemberItem = Static<typeof MemberItem>;

/** The answer of GET /api/members: oldest first, at most 1,000. */
export const MemberList = Type.Object({ members: Type.Array(MemberItem, { maxItems: 1000 }) });
export type MemberList = Static<typeof MemberList>;

export const InviteBody = Type.Object({ email: Type.String({ minLength: 3, maxLength: 320 }), role: RoleField });

/** The answer of POST /api/members/invite: the link, shown to copy. */
export const InviteAnswer = Type.Object({
  url: Type.String({ description: 'Works once, until expiresAt.' }),
  expiresAt: Type.String(),
  emailed: Type.Boolean({
    description: 'True when the link was also sent by email (STEPWISE_SMTP_URL) and the SMTP server accepted it.',
  }),
});
export type InviteAnswer = Static<typeof InviteAnswer>;

export const AcceptBody = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 100 }),
  name: Type.String({ minLength: 1, maxLength: 100 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
  email: Type.Optional(
    Type.String({ minLength: 3, maxLength: 320, description: 'Only for the first owner’s link, which has none.' }),
  ),
});

export const RoleBody = Type.Object({ role: RoleField });
export const MemberParams = Type.Object({ userId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });

/** One audit event: who (user and key) did what to whom. */
export const AuditItem = Type.Object({
  id: Type.Integer(),
  at: Type.String(),
  actor: Type.Object({
    userId: Nullable(Type.Integer()),
    name: Nullable(Type.String()),
    keyId: Nullable(Type.Integer()),
  }),
  action: Type.String(),
  subject: Type.String(),
  detail: Nullable(Type.String()),
});

/** The answer of GET /api/audit: newest first; `nextBefore` pages on. */
export const AuditList = Type.Object({
  events: Type.Array(AuditItem, { maxItems: 500 }),
  nextBefore: Nullable(Type.Integer()),
});
export type AuditList = Static<typeof AuditList>;

export const SwitchBody = Type.Object({ organization: Type.String({ minLength: 1, maxLength: 200 }) });
