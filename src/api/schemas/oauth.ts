import { Type, type Static } from '@sinclair/typebox';
import { OAUTH_SCOPES } from '../../auth/oauth-urls.js';
import { Nullable, StringEnum } from '../schema-helpers.js';

const Scope = StringEnum(OAUTH_SCOPES);

/** The answer of GET /api/oauth/consent/{uid}: what the consent page shows. */
export const ConsentRequest = Type.Object({
  uid: Type.String(),
  client: Type.Object({
    clientId: Type.String(),
    name: Nullable(Type.String({ description: 'The name the client registered with, if any (its own claim).' })),
    redirectHost: Type.String({ description: 'The host of the redirect URI the answer goes to.' }),
  }),
  scopes: Type.Array(Scope, { maxItems: OAUTH_SCOPES.length }),
  resource: Type.String({ description: 'The resource the token is for: this server’s /mcp.' }),
});
export type ConsentRequest = Static<typeof ConsentRequest>;

/** The body of POST /api/oauth/consent/{uid}. */
export const ConsentDecision = Type.Object({ decision: StringEnum(['allow', 'deny'] as const) });
export type ConsentDecision = Static<typeof ConsentDecision>;

/** The answer of POST /api/oauth/consent/{uid}: where the browser goes next. */
export const ConsentRedirect = Type.Object({ redirectTo: Type.String() });
export type ConsentRedirect = Static<typeof ConsentRedirect>;

/** One connected app: a client the requester allowed in this organization. */
export const ConnectedApp = Type.Object({
  clientId: Type.String(),
  clientName: Nullable(Type.String()),
  scopes: Type.Array(Scope, { maxItems: OAUTH_SCOPES.length }),
  authorizedAt: Type.String(),
  lastUsedAt: Nullable(Type.String({ description: 'Recorded at most once a minute.' })),
});
export type ConnectedApp = Static<typeof ConnectedApp>;

/** The answer of GET /api/oauth/apps. */
export const ConnectedAppList = Type.Object({ apps: Type.Array(ConnectedApp, { maxItems: 200 }) });
export type ConnectedAppList = Static<typeof ConnectedAppList>;

/** The body of POST /api/oauth/apps/revoke. */
export const RevokeApp = Type.Object({ clientId: Type.String({ minLength: 1, maxLength: 200 }) });
export type RevokeApp = Static<typeof RevokeApp>;
