/**
 * Where the OAuth 2.1 authorization server for tool clients and the MCP resource live
 * (docs/api.md §17–§18): one home for the URLs both sides name.
 */

/** The scopes an access token may carry. */
export const OAUTH_SCOPES = ['runs:read', 'runs:write'] as const;
export type OAuthScope = (typeof OAUTH_SCOPES)[number];

const trimmed = (publicUrl: string): string => publicUrl.replace(/\/+$/, '');

/** The authorization server's issuer identifier; its endpoints live under this path. */
export const oauthIssuer = (publicUrl: string): string => `${trimmed(publicUrl)}/oauth`;

/** The MCP endpoint: the resource (RFC 8707) every access token is bound to. */
export const mcpResource = (publicUrl: string): string => `${trimmed(publicUrl)}/mcp`;

/** The protected-resource metadata document of /mcp (RFC 9728, path-inserted well-known URL). */
export const protectedResourceMetadataUrl = (publicUrl: string): string =>
  `${trimmed(publicUrl)}/.well-known/oauth-protected-resource/mcp`;
