/**
 * OpenID Connect sign-in (docs/api.md §16) through `openid-client`: the start builds the
 * provider's authorization URL with state, nonce and PKCE (kept by the browser in a
 * short-lived cookie); the callback exchanges the code (the library checks the ID token's
 * signature, issuer, audience, nonce and state) and signs in the user of the ID token's
 * verified email, made on its first sign-in with the configured role in the default
 * organization.
 */
import type * as OpenIdClient from 'openid-client';
import type { OidcConfig } from '../config.js';
import type { Principal } from '../domain/types.js';
import { AppError, badRequest, forbidden } from '../errors.js';
import type { Deps } from '../services/context.js';
import { DEFAULT_ORG } from '../services/bootstrap.js';
import type { SessionAuthenticator } from '../services/session-authenticator.js';
import { landing, normalizeEmail } from './accounts.js';

/** openid-client, loaded on the first sign-in rather than at start-up (most servers never use it). */
const loadClient = (): Promise<typeof OpenIdClient> => import('openid-client');

/** What the start hands the callback through the browser: nothing in it is secret to its holder. */
export interface OidcPending {
  state: string;
  nonce: string;
  verifier: string;
}

const STALE = 'This sign-in was not started here or has expired: go back to the sign-in page and try again';

/** The provider's answer could not be used (its token, its ID token, or it could not be reached). */
const providerFailed = (err: unknown): AppError =>
  err instanceof AppError
    ? err
    : new AppError('UNAUTHORIZED', `Single sign-on failed: ${err instanceof Error ? err.message : String(err)}`);

/** One server's OIDC client: discovers the provider once (again after a failure). */
export class OidcSignIn {
  private discovered: Promise<OpenIdClient.Configuration> | undefined;
  readonly redirectUri: string;

  constructor(
    private readonly config: OidcConfig,
    publicUrl: string,
  ) {
    this.redirectUri = `${publicUrl}/api/auth/oidc/callback`;
  }

  private provider(): Promise<OpenIdClient.Configuration> {
    this.discovered ??= loadClient()
      .then((client) =>
        client.discovery(new URL(this.config.issuer), this.config.clientId, this.config.clientSecret, undefined, {
          // A provider on http is allowed only as the operator configured it (e.g. on loopback).
          execute: new URL(this.config.issuer).protocol === 'http:' ? [client.allowInsecureRequests] : [],
        }),
      )
      .catch((err: unknown) => {
        this.discovered = undefined;
        throw providerFailed(err);
      });
    return this.discovered;
  }

  /** The provider's authorization URL for a new sign-in, and what the callback must be given back. */
  async start(): Promise<{ url: string; pending: OidcPending }> {
    const provider = await this.provider();
    const client = await loadClient();
    const pending = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier: client.randomPKCECodeVerifier(),
    };
    const url = client.buildAuthorizationUrl(provider, {
      redirect_uri: this.redirectUri,
      scope: 'openid email profile',
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, pending };
  }

  /**
   * Finishes a sign-in at `callbackUrl` (the full URL the provider sent the browser to):
   * BAD_REQUEST without the start's cookie or for another state, UNAUTHORIZED when the
   * provider's answer fails the library's checks, FORBIDDEN for an email the provider has
   * not verified. Returns the verified email and the name to give a new user.
   */
  async finish(callbackUrl: URL, pending: OidcPending | undefined): Promise<{ email: string; name: string }> {
    const error = callbackUrl.searchParams.get('error');
    if (error !== null) {
      const described = callbackUrl.searchParams.get('error_description');
      throw badRequest(`The sign-in provider refused: ${(described ?? error).slice(0, 200)}`);
    }
    if (!pending || callbackUrl.searchParams.get('state') !== pending.state) throw badRequest(STALE);
    const provider = await this.provider();
    const client = await loadClient();
    let claims: Record<string, unknown>;
    try {
      const tokens = await client.authorizationCodeGrant(provider, callbackUrl, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      claims = { ...tokens.claims() };
      if (claims.email === undefined) {
        // Providers may keep email in the UserInfo answer only (checked against the ID token's sub).
        claims = { ...(await client.fetchUserInfo(provider, tokens.access_token, String(claims.sub))), ...claims };
      }
    } catch (err) {
      throw providerFailed(err);
    }
    if (typeof claims.email !== 'string' || claims.email === '') {
      throw forbidden('The sign-in provider gave no email address: Stepwise matches users by verified email');
    }
    if (claims.email_verified !== true) {
      throw forbidden(`The sign-in provider has not verified ${claims.email.slice(0, 254)}: verify it there first`);
    }
    const email = normalizeEmail(claims.email);
    const name = typeof claims.name === 'string' && claims.name.trim() !== '' ? claims.name.trim() : email;
    return { email, name: [...name].slice(0, 100).join('') };
  }
}

/**
 * Signs in the user of a verified email: an existing one in its home organization (else its
 * first), a new one (no password) as `role` in the default organization. FORBIDDEN for a
 * user who is a member of no organization.
 */
export async function signInVerifiedEmail(
  deps: Deps,
  sessions: SessionAuthenticator,
  who: { email: string; name: string },
  role: OidcConfig['defaultRole'],
): Promise<{ principal: Principal; token: string }> {
  const store = deps.metadata;
  const user = await store.findUserByEmail(who.email);
  if (user) {
    const org = landing(user.homeOrgId, await store.listMemberships(user.id));
    if (!org) throw forbidden(`${who.email} is no longer a member of any organization here`);
    return sessions.signInUser(user.id, org.orgId);
  }
  const at = Date.now();
  const orgId = await store.ensureOrganization(DEFAULT_ORG, at);
  const userId = await store.createAccount({
    orgId,
    email: who.email,
    displayName: who.name,
    passwordHash: null,
    role,
    at,
  });
  return sessions.signInUser(userId, orgId);
}
