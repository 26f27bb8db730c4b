import { createHash, randomBytes } from 'node:crypto';
import { principalOf } from '../domain/principal.js';
import type { Role } from '../domain/roles.js';
import type { Principal, SessionRecord } from '../domain/types.js';
import { unauthorized } from '../errors.js';
import type { MetadataStore } from '../store/metadata-store.js';
import type { Authenticator } from './authenticator.js';

const CACHE_MS = 1000;
const TOUCH_EVERY_MS = 60_000;
/** A token as signIn makes them: 32 random bytes, base64url. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** The principal of a user's session: its role in the organization, no key. */
const userPrincipal = (u: { userId: number; orgId: number; orgSlug: string }, role: Role): Principal =>
  principalOf({ ...u, keyId: null, keyExpiresAt: null, memberRole: role, keyRole: null });

/**
 * Dashboard sessions: a sign-in with an API key gives a random token (kept by the browser
 * in a cookie, stored here only as its SHA-256) that acts as that key until it goes unused
 * for `ttlMs` or the key is revoked or expires; a sign-in with a password (auth/) gives
 * one that acts as the user in an organization with its role there, until it goes unused
 * or the user is removed from that organization. Session rows, like keys, are cached for at
 * most a second, so a sign-out on another server takes effect within a second.
 */
export class SessionAuthenticator {
  private readonly cache = new Map<string, { record: SessionRecord | undefined; until: number }>();
  private readonly touched = new Map<string, number>();
  /** Rows are written at most once a minute, or twice per lifetime when that is shorter. */
  private readonly touchEveryMs: number;

  constructor(
    private readonly store: MetadataStore,
    private readonly keys: Authenticator,
    private readonly ttlMs: number,
    private readonly maxPerKey: number,
    private readonly onTouchError: (err: unknown) => void = () => {},
  ) {
    this.touchEveryMs = Math.min(TOUCH_EVERY_MS, ttlMs / 2);
  }

  /**
   * Checks a key like a Bearer key (same 401 reasons) and opens a session, ending the key's
   * oldest sessions past `maxPerKey`; returns its token.
   */
  async signIn(key: string): Promise<{ principal: Principal; token: string }> {
    const principal = await this.keys.authenticateKey(key);
    const token = await this.open({ apiKeyId: principal.keyId! });
    return { principal, token };
  }

  /**
   * Opens a user's session in an organization (after a password sign-in, or a switch of
   * organization), ending the user's oldest sessions past `maxPerKey`; throws UNAUTHORIZED
   * when the user is no member of it. Returns the principal and token.
   */
  async signInUser(userId: number, orgId: number): Promise<{ principal: Principal; token: string }> {
    const token = await this.open({ user: { userId, orgId } });
    const record = await this.store.findSession(hashToken(token));
    if (!record?.user?.role) {
      await this.store.deleteSession(hashToken(token));
      throw unauthorized('Not a member of that organization');
    }
    return { principal: userPrincipal(record.user, record.user.role), token };
  }

  /** The SHA-256 (hex) a token is stored by: to tell a request's own session apart. */
  static hashOf(token: string): string {
    return hashToken(token);
  }

  private async open(owner: { apiKeyId: number } | { user: { userId: number; orgId: number } }): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = Date.now();
    await this.store.createSession(
      { tokenHash: hashToken(token), ...owner, createdAt: now, expiresAt: now + this.ttlMs },
      this.maxPerKey,
    );
    return token;
  }

  /**
   * The principal of a session token; `renewed` is true when this use moved the session's
   * end (the caller then renews the cookie too). Throws UNAUTHORIZED for an unknown, ended
   * or expired session and with the key's reason for a revoked or expired key.
   */
  async authenticate(token: string): Promise<{ principal: Principal; renewed: boolean }> {
    if (!TOKEN.test(token)) throw unauthorized('Invalid session');
    const hash = hashToken(token);
    const record = await this.lookup(hash);
    const now = Date.now();
    if (!record) throw unauthorized('Invalid session');
    if (record.expiresAt <= now) throw unauthorized('Session has expired');
    let principal: Principal;
    if (record.user) {
      // Removal from the organization ends the session (read at most a second ago).
      if (record.user.role === null) throw unauthorized('Invalid session');
      principal = userPrincipal(record.user, record.user.role);
    } else {
      principal = await this.keys.authenticateHash(record.keyHash ?? '');
    }
    return { principal, renewed: this.touch(hash, record, now) };
  }

  /**
   * The first of `tokens` that authenticates, with its principal and `renewed`; when none
   * does, throws the first token's reason. Lets a real session cookie win over others of
   * the same name.
   */
  async authenticateAny(tokens: readonly string[]): Promise<{ token: string; principal: Principal; renewed: boolean }> {
    let first: unknown;
    for (const token of tokens) {
      try {
        return { token, ...(await this.authenticate(token)) };
      } catch (err) {
        first ??= err;
      }
    }
    throw first ?? unauthorized('Invalid session');
  }

  /** Ends a session everywhere (its row is deleted); a malformed or unknown token is a no-op. */
  async signOut(token: string): Promise<void> {
    if (!TOKEN.test(token)) return;
    const hash = hashToken(token);
    this.cache.delete(hash);
    this.touched.delete(hash);
    await this.store.deleteSession(hash);
  }

  /** The cookie's lifetime in whole seconds. */
  get maxAgeSeconds(): number {
    return Math.ceil(this.ttlMs / 1000);
  }

  private async lookup(hash: string): Promise<SessionRecord | undefined> {
    const now = Date.now();
    const hit = this.cache.get(hash);
    if (hit && hit.until > now) return hit.record;
    const record = await this.store.findSession(hash);
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(hash, { record, until: now + CACHE_MS });
    return record;
  }

  private touch(hash: string, record: SessionRecord, now: number): boolean {
    const last = Math.max(record.lastUsedAt, this.touched.get(hash) ?? 0);
    if (now - last < this.touchEveryMs) return false;
    if (this.touched.size > 10_000) this.touched.clear();
    this.touched.set(hash, now);
    const expiresAt = now + this.ttlMs;
    const hit = this.cache.get(hash);
    if (hit?.record) hit.record = { ...hit.record, lastUsedAt: now, expiresAt };
    this.store.touchSession(hash, now, expiresAt).catch(this.onTouchError);
    return true;
  }
}
