/**
 * The OAuth 2.1 authorization server for tool clients (docs/api.md §18): `oidc-provider`
 * configured for the authorization-code grant with PKCE S256 only, refresh tokens rotated on
 * every use, open dynamic client registration, revocation, and one resource (the MCP
 * endpoint) whose opaque access tokens carry runs:read / runs:write. Every record goes
 * through the OAuth store, so several servers on one database act as one.
 */
import Provider, { errors, type KoaContext, type OidcAccount } from 'oidc-provider';
import { mcpResource, oauthIssuer, OAUTH_SCOPES } from '../oauth-urls.js';
import type { OAuthStore } from '../../store/oauth-store.js';
import { OAuthAdapter } from './oauth-adapter.js';
import type { OAuthKeys } from './oauth-keys.js';

const HOUR = 3600;
const DAY = 24 * HOUR;

/** Lifetimes in seconds. */
export const OAUTH_TTL = {
  accessToken: HOUR,
  authorizationCode: 60,
  /** Each rotation gives the new refresh token this long again. */
  refreshToken: 30 * DAY,
  /** A grant ends a year after consent whatever its refreshes (the user allows again). */
  grant: 365 * DAY,
  interaction: 10 * 60,
  session: 10 * 60,
} as const;

/** The names of the provider's cookies (the interaction cookie is sent to the consent API). */
export const OAUTH_COOKIES = { session: 'oauth_session', interaction: 'oauth_interaction', resume: 'oauth_resume' };

/** The accountId of a grant: who it acts as (the grant row in the store says the rest). */
export const accountIdOf = (p: { userId: number; orgId: number; keyId: number | null }): string =>
  `${p.orgId}.${p.userId}.${p.keyId ?? 'password'}`;

/** Builds the provider for a public URL over the store with the stored keys. */
export function createOAuthProvider(publicUrl: string, store: OAuthStore, keys: OAuthKeys): Provider {
  const resource = mcpResource(publicUrl);
  const base = publicUrl.replace(/\/+$/, '');
  const provider = new Provider(oauthIssuer(publicUrl), {
    adapter: (model: string) => new OAuthAdapter(model, store),
    jwks: keys.jwks,
    cookies: {
      keys: keys.cookieKeys,
      names: OAUTH_COOKIES,
      // Path '/': the consent API (/api/oauth/consent/:uid) reads the interaction cookie too.
      short: { httpOnly: true, sameSite: 'lax', path: '/' },
      long: { httpOnly: true, sameSite: 'lax' },
    },
    scopes: [...OAUTH_SCOPES],
    claims: { openid: ['sub'] },
    responseTypes: ['code'],
    pkce: { required: () => true },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: 'ES256',
    },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      userinfo: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      registration: { enabled: true, initialAccessToken: false },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          if (indicator !== resource) throw new errors.InvalidTarget(`the only resource here is ${resource}`);
          return {
            scope: OAUTH_SCOPES.join(' '),
            audience: resource,
            accessTokenTTL: OAUTH_TTL.accessToken,
            accessTokenFormat: 'opaque',
          };
        },
      },
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `${base}/consent/${interaction.uid}` },
    // Every authorization asks the user (an earlier grant of the same client is not reused).
    loadExistingGrant: async (ctx: { oidc: { result?: { consent?: { grantId?: string } }; provider: Provider } }) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId === undefined ? undefined : (ctx.oidc.provider as unknown as GrantFinder).Grant.find(grantId);
    },
    findAccount: (_ctx: unknown, sub: string): OidcAccount => ({ accountId: sub, claims: async () => ({ sub }) }),
    issueRefreshToken: (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: () => true,
    ttl: {
      AccessToken: OAUTH_TTL.accessToken,
      AuthorizationCode: OAUTH_TTL.authorizationCode,
      RefreshToken: OAUTH_TTL.refreshToken,
      Grant: OAUTH_TTL.grant,
      Interaction: OAUTH_TTL.interaction,
      Session: OAUTH_TTL.session,
      IdToken: HOUR,
    },
    // Errors the library would show as a page (no client to send them to) are JSON too.
    renderError: (ctx: { body: unknown }, out: Record<string, string>) => {
      ctx.body = { ...out };
    },
  });
  // The provider's URLs come from the public URL (the routes set the forwarded headers).
  provider.proxy = true;
  provider.use(withErrorCodes);
  return provider;
}

/**
 * Gives every error answer the server's `{error, code}` shape as well as OAuth's (RFC 6749
 * §5.2): `code` is the OAuth `error` in capitals (INVALID_GRANT, ...); a path under the
 * issuer that is no endpoint is a JSON 404 (NOT_FOUND).
 */
async function withErrorCodes(ctx: KoaContext, next: () => Promise<void>): Promise<void> {
  await next();
  if (ctx.status === 404 && (ctx.body === undefined || ctx.body === null || typeof ctx.body === 'string')) {
    ctx.body = { error: 'No such endpoint of the authorization server', code: 'NOT_FOUND' };
    ctx.status = 404;
    return;
  }
  const body = ctx.body as { error?: unknown; code?: unknown } | null;
  if (ctx.status >= 400 && body !== null && typeof body === 'object' && typeof body.error === 'string') {
    if (body.code === undefined) ctx.body = { ...body, code: body.error.toUpperCase().replace(/[^A-Z0-9_]/g, '_') };
  }
}

interface GrantFinder {
  Grant: { find(id: string): Promise<unknown> };
}
