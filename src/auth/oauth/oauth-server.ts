import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { Deps } from '../../services/context.js';
import type { OAuthAppRecord, OAuthStore } from '../../store/oauth-store.js';
import { mcpResource, oauthIssuer, OAUTH_SCOPES, type OAuthScope } from '../oauth-urls.js';
import { AccessTokens } from './access-tokens.js';
import { OAuthConsent } from './oauth-consent.js';
import { loadOAuthKeys } from './oauth-keys.js';
import { createOAuthProvider } from './oauth-provider.js';

const SWEEP_EVERY_MS = 10 * 60_000;

/** A connected app as the API keys page lists it. */
export interface ConnectedApp {
  clientId: string;
  clientName: string | null;
  scopes: OAuthScope[];
  authorizedAt: number;
  lastUsedAt: number | null;
}

/**
 * The authorization server of one process (docs/api.md §18): the provider mounted under the
 * issuer's path, the consent step, access-token checks, connected apps, and a sweep of
 * expired records every ten minutes (any server may sweep; it is idempotent).
 */
export class OAuthServer {
  readonly tokens: AccessTokens;
  readonly consent: OAuthConsent;
  private readonly callback: (req: IncomingMessage, res: ServerResponse) => void;
  private readonly issuerPath: string;
  private readonly forwarded: { host: string; proto: string };
  private readonly sweeper: NodeJS.Timeout;

  private constructor(
    readonly provider: Provider,
    private readonly store: OAuthStore,
    publicUrl: string,
    onError: (err: unknown, message: string) => void,
  ) {
    const resource = mcpResource(publicUrl);
    this.tokens = new AccessTokens(provider, store, resource, (err) => onError(err, 'could not record token use'));
    this.consent = new OAuthConsent(provider, store, resource);
    this.callback = provider.callback();
    const issuer = new URL(oauthIssuer(publicUrl));
    this.issuerPath = issuer.pathname;
    this.forwarded = { host: issuer.host, proto: issuer.protocol.replace(':', '') };
    provider.on('server_error', (_ctx, err) => onError(err, 'oauth server error'));
    // A token revoked here (RFC 7009, or a grant ended by a reused refresh token) ends at once,
    // not when its cached answer runs out a second later.
    provider.on('access_token.destroyed', () => this.tokens.forget());
    provider.on('grant.revoked', () => this.tokens.forget());
    this.sweeper = setInterval(() => {
      store.sweepOAuth(Date.now()).catch((err: unknown) => onError(err, 'oauth sweep failed'));
    }, SWEEP_EVERY_MS);
    this.sweeper.unref();
  }

  /** Loads (or makes, on the first start) the keys and builds the server. */
  static async open(deps: Deps, onError: (err: unknown, message: string) => void): Promise<OAuthServer> {
    const keys = await loadOAuthKeys(deps.metadata);
    const provider = createOAuthProvider(deps.config.publicUrl, deps.oauth, keys);
    return new OAuthServer(provider, deps.oauth, deps.config.publicUrl, onError);
  }

  /**
   * Hands a raw request to the provider as if it came to `<issuer path><path>` of the public
   * URL (its URLs are built from the public URL whatever Host the request carried).
   */
  handle(req: IncomingMessage, res: ServerResponse, path: string): void {
    const url = req.method === 'GET' ? withDefaultScope(path) : path;
    (req as IncomingMessage & { originalUrl?: string }).originalUrl = `${this.issuerPath}${url}`;
    req.url = url;
    req.headers['x-forwarded-host'] = this.forwarded.host;
    req.headers['x-forwarded-proto'] = this.forwarded.proto;
    delete req.headers['x-forwarded-for'];
    this.callback(req, res);
  }

  /** A user's connected apps in an organization (at most `limit`), latest used first. */
  async listApps(userId: number, orgId: number, limit: number): Promise<ConnectedApp[]> {
    const apps = await this.store.listOAuthApps(userId, orgId, Date.now(), limit);
    return apps.map(appView);
  }

  /** Ends a user's grants of a client in an organization and all their tokens; false when there were none. */
  async revokeApp(userId: number, orgId: number, clientId: string): Promise<boolean> {
    const ended = await this.store.deleteOAuthApp(userId, orgId, clientId);
    this.tokens.forget();
    return ended > 0;
  }

  /** Stops the sweep. */
  close(): void {
    clearInterval(this.sweeper);
  }
}

/** An authorization request (GET /auth) that names no scope asks for runs:read (docs/api.md §18). */
function withDefaultScope(path: string): string {
  const query = path.indexOf('?');
  if (query < 0 || path.slice(0, query) !== '/auth') return path;
  const params = new URLSearchParams(path.slice(query + 1));
  if ((params.get('scope') ?? '').trim() !== '') return path;
  params.set('scope', 'runs:read');
  return `/auth?${params.toString()}`;
}

function appView(a: OAuthAppRecord): ConnectedApp {
  let clientName: string | null = null;
  if (a.clientPayload !== null) {
    const name = (JSON.parse(a.clientPayload) as { client_name?: unknown }).client_name;
    if (typeof name === 'string') clientName = name;
  }
  const scopes = OAUTH_SCOPES.filter((s) => a.scopes.includes(s));
  return { clientId: a.clientId, clientName, scopes, authorizedAt: a.authorizedAt, lastUsedAt: a.lastUsedAt };
}
