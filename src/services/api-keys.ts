import { createHash, randomBytes } from 'node:crypto';
import type { Role } from '../domain/roles.js';
import type { ApiKeyRecord } from '../domain/types.js';
import { BIDI_CONTROL_RULE, hasBidiControl } from '../domain/unicode-text.js';
import { badRequest, notFound } from '../errors.js';
import type { MetadataStore } from '../store/metadata-store.js';
import type { Ctx } from './context.js';
import { childKeyExpiry, childKeyRole, mayManageKey } from './key-authority.js';

/** The prefix of every key Stepwise generates. */
export const KEY_PREFIX = 'sw_';

/** A new random API key: the prefix plus 256 bits of randomness, base64url. */
export const generateApiKey = (): string => KEY_PREFIX + randomBytes(32).toString('base64url');

/** The SHA-256 (hex) a key is stored and looked up by. */
export const hashApiKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

/** The part of a key that may be shown again after creation (never enough to use it). */
export const keyDisplayPrefix = (key: string): string => key.slice(0, key.startsWith(KEY_PREFIX) ? 11 : 6);

export interface CreateKeyOptions {
  orgSlug: string;
  userName: string;
  name: string;
  expiresAt: number | null;
  /** Use this exact key instead of generating one. */
  key?: string;
  /** Mark the user its organization's admin, i.e. its owner (the bootstrap user, `keys create --admin`). */
  admin?: boolean;
  /** Give the user this role in the organization (a new user is otherwise a member). */
  role?: Role;
  /** A cap on the user's role for this key. */
  keyRole?: Role | null;
}

/** Stores a new key of a user (its hash only); returns the key in clear with its id. */
async function storeNewKey(
  store: MetadataStore,
  orgId: number,
  userId: number,
  o: { name: string; expiresAt: number | null; key?: string; keyRole?: Role | null; at: number },
): Promise<{ id: number; key: string }> {
  const key = o.key ?? generateApiKey();
  const id = await store.createApiKey({
    orgId,
    userId,
    name: o.name,
    prefix: keyDisplayPrefix(key),
    keyHash: hashApiKey(key),
    createdAt: o.at,
    expiresAt: o.expiresAt,
    role: o.keyRole ?? null,
  });
  return { id, key };
}

/**
 * Creates an API key (and its organization and user when missing). Returns the key in
 * clear, which is never stored, with its id.
 */
export async function createApiKey(store: MetadataStore, o: CreateKeyOptions): Promise<{ id: number; key: string }> {
  const at = Date.now();
  const orgId = await store.ensureOrganization(o.orgSlug, at);
  const userId = await store.ensureUser(orgId, o.userName, at);
  if (o.admin) await store.setUserAdmin(userId, true);
  if (o.role) await store.setMemberRole(orgId, userId, o.role, at);
  return storeNewKey(store, orgId, userId, { ...o, at });
}

// Control characters and line/paragraph separators: a key name is one printable line.
const UNPRINTABLE = /[\p{Cc}\u2028\u2029]/u;
/** 2026-01-31, or a time with seconds optional, fractions and a zone (Z or ±hh:mm) required. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** A key name as given, without surrounding whitespace; throws BAD_REQUEST unless 1–100 printable characters without bidi controls. */
export function checkKeyName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '' || [...trimmed].length > 100 || UNPRINTABLE.test(trimmed)) {
    throw badRequest('name must be 1 to 100 printable characters on one line');
  }
  if (hasBidiControl(trimmed)) throw badRequest(`name must not contain ${BIDI_CONTROL_RULE}`);
  return trimmed;
}

/** True when the text's date exists and its hour is 0–23 (Date.parse takes 2027-02-30 and 24:00). */
function realDate(text: string): boolean {
  const [y, m, d] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  return (
    day.getUTCMonth() === m - 1 && day.getUTCDate() === d && (text.length === 10 || Number(text.slice(11, 13)) < 24)
  );
}

/**
 * The time (ms) of an ISO 8601 expiry (a date alone is its midnight UTC); null for none.
 * Throws BAD_REQUEST for any other text or a time not after `now`.
 */
export function parseKeyExpiry(text: string | null | undefined, now: number): number | null {
  if (text === null || text === undefined) return null;
  const at = ISO_TIME.test(text) && realDate(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(at)) throw badRequest('expiresAt must be an ISO 8601 time such as 2027-01-31T00:00:00Z');
  if (at <= now) throw badRequest('expiresAt must be in the future');
  return at;
}

/**
 * The keys the requester may manage, newest first: the organization's for its admin, else
 * its own user's (never a key or its hash beyond the record).
 */
export async function listOrgKeys(ctx: Ctx): Promise<ApiKeyRecord[]> {
  const keys = await ctx.deps.metadata.listApiKeys(ctx.principal.orgSlug);
  return keys.filter((k) => mayManageKey(ctx.principal, k)).reverse();
}

/**
 * Creates a key for the requesting user in their organization, capped at `role` (default: the
 * requesting key's cap); throws BAD_REQUEST for a bad name or expiry, or one later than the
 * requesting key's own (none included), FORBIDDEN_ROLE for a role wider than the requester's. Returns the key in clear (shown once, never stored) and its record.
 */
export async function createOrgKey(
  ctx: Ctx,
  input: { name: string; expiresAt?: string | null; role?: Role | null },
): Promise<{ key: string; record: ApiKeyRecord }> {
  const at = Date.now();
  const name = checkKeyName(input.name);
  const expiresAt = childKeyExpiry(ctx.principal, parseKeyExpiry(input.expiresAt, at));
  const keyRole = childKeyRole(ctx.principal, input.role ?? undefined);
  const { orgId, userId } = ctx.principal;
  const { id, key } = await storeNewKey(ctx.deps.metadata, orgId, userId, { name, expiresAt, keyRole, at });
  return { key, record: (await ctx.deps.metadata.findApiKey(orgId, id))! };
}

/**
 * Revokes a key the requester may manage (idempotent: a revoked key keeps its first
 * revocation time) and returns its record; throws NOT_FOUND for an unknown id, another
 * organization's key, or another user's key the requester may not manage (key-authority.ts).
 * Servers refuse the key within a second (their key cache), sessions it opened included.
 */
export async function revokeOrgKey(ctx: Ctx, id: number): Promise<ApiKeyRecord> {
  const { metadata } = ctx.deps;
  const found = await metadata.findApiKey(ctx.principal.orgId, id);
  if (!found || !mayManageKey(ctx.principal, found)) throw notFound(`API key ${id} not found`);
  await metadata.revokeApiKey(id, Date.now());
  return (await metadata.findApiKey(ctx.principal.orgId, id))!;
}
