import { Type, type Static } from '@sinclair/typebox';

/** The protected-resource metadata of /mcp (RFC 9728 §2), as GET /.well-known/oauth-protected-resource answers it. */
export const ProtectedResource = Type.Object({
  resource: Type.String(),
  authorization_servers: Type.Array(Type.String()),
  scopes_supported: Type.Array(Type.String()),
  bearer_methods_supported: Type.Array(Type.String()),
  resource_name: Type.String(),
});
export type ProtectedResource = Static<typeof ProtectedResource>;
