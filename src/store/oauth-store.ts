import type { Role } from '../domain/roles.js';

/** One stored object of the OAuth provider library (its Adapter's unit). */
export interface OAuthRecord {
  /** The library's model name: Client, Grant, AccessToken, RefreshToken, Session, Interaction, ... */
  model: string;
  id: string;
  /** The library's payload as JSON text. */
  payload: string;
  grantId: string | null;
  uid: string | null;
  userCode: string | null;
  /** When it ends (ms); null: never. */
  expiresAt: number | null;
}

/** A stored record as read back: its payload and when it was consumed (ms; null: not yet). */
export interface FoundOAuthRecord {
  payload: string;
  consumedAt: number | null;
}

/** Who a grant acts as (written when a user allows a client). */
export interface NewOAuthGrant {
  grantId: string;
  clientId: string;
  userId: number;
  orgId: number;
  /** The sign-in key of the session that allowed it; null for a password session. */
  keyId: number | null;
  scopes: readonly string[];
  createdAt: number;
  expiresAt: number;
}

/** A grant with what its tokens are checked against now. */
export interface OAuthGrantRecord extends NewOAuthGrant {
  orgSlug: string;
  /** The user's role in the organization now; null when no longer a member. */
  memberRole: Role | null;
  /** The sign-in key's own cap (null: none or no key). */
  keyRole: Role | null;
  keyRevokedAt: number | null;
  keyExpiresAt: number | null;
  lastUsedAt: number | null;
}

/** A user's connected app in an organization: its grants of one client taken together. */
export interface OAuthAppRecord {
  clientId: string;
  /** The client's registration payload (JSON text), or null when it is gone. */
  clientPayload: string | null;
  scopes: string[];
  /** The earliest grant's creation (ms). */
  authorizedAt: number;
  /** The latest use of any of its grants (ms), or null. */
  lastUsedAt: number | null;
}

/**
 * The OAuth 2.1 authorization server's storage (docs/api.md §18), on the metadata database:
 * shared by every server on it. Expired rows are treated as missing and swept.
 */
export interface OAuthStore {
  /** Stores (or replaces) a record; its consumption mark is kept on replace. */
  saveOAuthRecord(record: OAuthRecord): Promise<void>;
  /** The unexpired record of a model with this id, or undefined. */
  findOAuthRecord(model: string, id: string, now: number): Promise<FoundOAuthRecord | undefined>;
  /** The unexpired record of a model with this uid (sessions), or undefined. */
  findOAuthRecordByUid(model: string, uid: string, now: number): Promise<FoundOAuthRecord | undefined>;
  /** The unexpired record of a model with this user code, or undefined. */
  findOAuthRecordByUserCode(model: string, userCode: string, now: number): Promise<FoundOAuthRecord | undefined>;
  /** Marks a record consumed at `at` (a used authorization code or rotated refresh token). */
  consumeOAuthRecord(model: string, id: string, at: number): Promise<void>;
  /** Deletes a record; deleting a Grant deletes who it acts as too (its tokens then fail). */
  deleteOAuthRecord(model: string, id: string): Promise<void>;
  /** Deletes the records of a model that belong to a grant. */
  deleteOAuthGrantRecords(model: string, grantId: string): Promise<void>;
  /** Records who a grant acts as, and clears its client's end in the same transaction (kept for good). */
  createOAuthGrant(grant: NewOAuthGrant): Promise<void>;
  /** A grant with its user's role, organization and key now, or undefined (unknown or ended). */
  findOAuthGrant(grantId: string, now: number): Promise<OAuthGrantRecord | undefined>;
  /** Records a grant's use at `at`. */
  touchOAuthGrant(grantId: string, at: number): Promise<void>;
  /** A user's unexpired grants in an organization by client, latest used first, at most `limit`. */
  listOAuthApps(userId: number, orgId: number, now: number, limit: number): Promise<OAuthAppRecord[]>;
  /**
   * Ends a user's grants of a client in an organization with every record of them (codes,
   * tokens) in one transaction; returns how many grants ended.
   */
  deleteOAuthApp(userId: number, orgId: number, clientId: string): Promise<number>;
  /** Deletes records and grants that ended before `now`; returns how many rows went. */
  sweepOAuth(now: number): Promise<number>;
}
