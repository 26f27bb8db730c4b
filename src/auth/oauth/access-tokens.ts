import { createHash } from 'node:crypto';
import type Provider from 'oidc-provider';
import { principalOf } from '../../domain/principal.js';
import type { Principal } from '../../domain/types.js';
import { unauthorized } from '../../errors.js';
import type { OAuthStore } from '../../store/oauth-store.js';
import { OAUTH_SCOPES } from '../oauth-urls.js';

const CACHE_MS = 1000;
const TOUCH_EVERY_MS = 60_000;

const hashOf = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * Resolves OAuth access tokens (docs/api.md §18) to the Principal of the user and
 * organization their grant acts as: the user's current role narrowed by the sign-in key's
 * cap, and to viewer without runs:write. A token, its grant and its user's membership and
 * key are read at most a second ago, so a revocation, a removed member or a revoked key
 * ends it within a second.
 */
export class AccessTokens {
  private readonly cache = new Map<string, { result: Principal | Error; until: number }>();
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly provider: Provider,
    private readonly store: OAuthStore,
    private readonly resource: string,
    private readonly onTouchError: (err: unknown) => void = () => {},
  ) {}

  /**
   * The principal of an access token; throws UNAUTHORIZED for an unknown, expired or revoked
   * token, one for another resource, or one whose user or sign-in key no longer may act.
   */
  async authenticate(token: string): Promise<Principal> {
    const now = Date.now();
    const key = hashOf(token);
    const hit = this.cache.get(key);
    const result = hit && hit.until > now ? hit.result : await this.resolve(token, now);
    if (!hit || hit.until <= now) {
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(key, { result, until: now + CACHE_MS });
    }
    if (result instanceof Error) throw result;
    return result;
  }

  /** Forgets every cached answer (a revocation made by this server takes effect at once). */
  forget(): void {
    this.cache.clear();
  }

  private async resolve(token: string, now: number): Promise<Principal | Error> {
    const found = await this.provider.AccessToken.find(token);
    if (!found || found.isExpired) return unauthorized('Invalid access token');
    const audiences = Array.isArray(found.aud) ? found.aud : [found.aud];
    if (!audiences.includes(this.resource)) return unauthorized('This access token is for another resource');
    const grant = await this.store.findOAuthGrant(found.grantId, now);
    if (!grant || grant.memberRole === null || grant.keyRevokedAt !== null) {
      return unauthorized('Access token has been revoked');
    }
    if (grant.keyExpiresAt !== null && grant.keyExpiresAt < now) return unauthorized('Access token has expired');
    const scopes = (found.scope ?? '').split(' ').filter((s) => (OAUTH_SCOPES as readonly string[]).includes(s));
    this.touch(grant.grantId, now);
    return principalOf({ ...grant, memberRole: grant.memberRole }, scopes);
  }

  private touch(grantId: string, now: number): void {
    const last = this.touched.get(grantId) ?? 0;
    if (now - last < TOUCH_EVERY_MS) return;
    if (this.touched.size > 10_000) this.touched.clear();
    this.touched.set(grantId, now);
    this.store.touchOAuthGrant(grantId, now).catch(this.onTouchError);
  }
}
