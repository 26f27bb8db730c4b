import { Type, type Static } from '@sinclair/typebox';

/** The answer of GET /api/auth/providers: which sign-in methods besides keys and passwords are on. */
export const AuthProviders = Type.Object({ oidc: Type.Boolean() });
export type AuthProviders = Static<typeof AuthProviders>;

/** The query the provider sends the browser back with (RFC 6749 §4.1.2, RFC 9207 `iss`). */
export const OidcCallbackQuery = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 4096 })),
  state: Type.Optional(Type.String({ maxLength: 1024 })),
  iss: Type.Optional(Type.String({ maxLength: 2048 })),
  error: Type.Optional(Type.String({ maxLength: 1024 })),
  error_description: Type.Optional(Type.String({ maxLength: 4096 })),
});
