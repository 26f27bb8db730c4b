/**
 * The consent step of an authorization (docs/api.md §18): what the dashboard's consent page
 * shows, and the user's decision. Allowing records a grant acting as the signed-in user in
 * the organization, through the sign-in key of the session (none for a password session).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { Interaction } from 'oidc-provider';
import type { Principal } from '../../domain/types.js';
import { forbidden, notFound } from '../../errors.js';
import type { OAuthStore } from '../../store/oauth-store.js';
import { OAUTH_SCOPES, type OAuthScope } from '../oauth-urls.js';
import { accountIdOf, OAUTH_TTL } from './oauth-provider.js';

/** What the consent page shows. */
export interface ConsentDetails {
  uid: string;
  client: { clientId: string; name: string | null; redirectHost: string };
  scopes: OAuthScope[];
  resource: string;
}

/** The raw request and response: the provider reads its signed interaction cookie from them. */
export interface RawExchange {
  req: IncomingMessage;
  res: ServerResponse;
}

const EXPIRED = 'This authorization request is unknown or has expired: start again from the application';

export class OAuthConsent {
  constructor(
    private readonly provider: Provider,
    private readonly store: OAuthStore,
    private readonly resource: string,
  ) {}

  /**
   * The interaction `uid` of this browser (its signed cookie must name it) with its client
   * and the scopes asked (runs:read when it names none); throws NOT_FOUND for an unknown,
   * expired or other browser's interaction.
   */
  async details(uid: string, raw: RawExchange): Promise<ConsentDetails> {
    const interaction = await this.interaction(uid, raw);
    const clientId = String(interaction.params.client_id ?? '');
    const client = await this.provider.Client.find(clientId);
    if (!client) throw notFound(EXPIRED);
    const redirect = String(interaction.params.redirect_uri ?? client.redirectUris[0] ?? '');
    let redirectHost = '';
    try {
      redirectHost = new URL(redirect).host;
    } catch {
      redirectHost = redirect;
    }
    return {
      uid,
      client: { clientId, name: client.clientName ?? null, redirectHost },
      scopes: requestedScopes(interaction),
      resource: this.resource,
    };
  }

  /**
   * Records the decision and returns where the browser goes next (the provider's resume
   * URL, which ends at the client with a code or `access_denied`). Allow stores a grant of
   * the scopes asked acting as `principal`; an access token cannot consent (FORBIDDEN).
   */
  async decide(uid: string, decision: 'allow' | 'deny', principal: Principal, raw: RawExchange): Promise<string> {
    if (principal.scopes !== null) throw forbidden('An access token cannot authorize applications');
    const interaction = await this.interaction(uid, raw);
    if (decision === 'deny') {
      const denied = { error: 'access_denied', error_description: 'The user denied the request' };
      return this.provider.interactionResult(raw.req, raw.res, denied, { mergeWithLastSubmission: false });
    }
    const clientId = String(interaction.params.client_id ?? '');
    const scopes = requestedScopes(interaction);
    const accountId = accountIdOf(principal);
    const grant = new this.provider.Grant({ accountId, clientId });
    // The scopes are listed in the provider's own scopes (its metadata names them) as well as
    // the resource's, so the grant carries them in both places.
    grant.addOIDCScope(scopes.join(' '));
    grant.addResourceScope(this.resource, scopes.join(' '));
    const grantId = await grant.save(OAUTH_TTL.grant);
    const now = Date.now();
    await this.store.createOAuthGrant({
      grantId,
      clientId,
      userId: principal.userId,
      orgId: principal.orgId,
      keyId: principal.keyId,
      scopes,
      createdAt: now,
      expiresAt: now + OAUTH_TTL.grant * 1000,
    });
    const result = { login: { accountId }, consent: { grantId } };
    return this.provider.interactionResult(raw.req, raw.res, result, { mergeWithLastSubmission: false });
  }

  private async interaction(uid: string, raw: RawExchange): Promise<Interaction> {
    let interaction: Interaction;
    try {
      interaction = await this.provider.interactionDetails(raw.req, raw.res);
    } catch {
      throw notFound(EXPIRED);
    }
    if (interaction.uid !== uid) throw notFound(EXPIRED);
    return interaction;
  }
}

/** The scopes of ours the request names, in OAUTH_SCOPES order; runs:read when it names none. */
function requestedScopes(interaction: Interaction): OAuthScope[] {
  const asked = new Set(String(interaction.params.scope ?? '').split(' '));
  const scopes = OAUTH_SCOPES.filter((s) => asked.has(s));
  return scopes.length === 0 ? ['runs:read'] : [...scopes];
}
