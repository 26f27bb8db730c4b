/**
 * Organization, user and API key queries of the SQL metadata store.
 */
import { atLeast, isRole, type Role } from '../../../domain/roles.js';
import type { ApiKeyRecord, NewApiKey } from '../../../domain/types.js';
import type { SqlDb } from '../db.js';

interface KeyRow {
  id: number;
  org_id: number;
  org_slug: string;
  user_id: number;
  user_name: string;
  user_role: string | null;
  role: string | null;
  name: string;
  prefix: string;
  key_hash: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  last_used_at: number | null;
}

const KEY_SELECT = `SELECT k.id, k.org_id, o.slug AS org_slug, k.user_id, u.name AS user_name, m.role AS user_role, k.role,
  k.name, k.prefix, k.key_hash, k.created_at, k.expires_at, k.revoked_at, k.last_used_at
  FROM api_keys k JOIN organizations o ON o.id = k.org_id JOIN users u ON u.id = k.user_id
  LEFT JOIN memberships m ON m.org_id = k.org_id AND m.user_id = k.user_id`;

/** A stored role, or null for none (or for text that is no role: never more than was stored). */
const roleOf = (text: string | null): Role | null => (isRole(text) ? text : null);

const num = (v: number | null): number | null => (v === null ? null : Number(v));

function toKey(r: KeyRow): ApiKeyRecord {
  return {
    id: Number(r.id),
    orgId: Number(r.org_id),
    orgSlug: r.org_slug,
    userId: Number(r.user_id),
    userName: r.user_name,
    userAdmin: r.user_role !== null && isRole(r.user_role) && atLeast(r.user_role, 'admin'),
    userRole: roleOf(r.user_role),
    role: roleOf(r.role),
    name: r.name,
    prefix: r.prefix,
    keyHash: r.key_hash,
    createdAt: Number(r.created_at),
    expiresAt: num(r.expires_at),
    revokedAt: num(r.revoked_at),
    lastUsedAt: num(r.last_used_at),
  };
}

export async function ensureOrganization(db: SqlDb, slug: string, at: number): Promise<number> {
  await db.run('INSERT INTO organizations (slug, created_at) VALUES (?, ?) ON CONFLICT (slug) DO NOTHING', [slug, at]);
  const row = await db.get<{ id: number }>('SELECT id FROM organizations WHERE slug = ?', [slug]);
  return Number(row!.id);
}

export async function ensureUser(db: SqlDb, orgId: number, name: string, at: number): Promise<number> {
  await db.run('INSERT INTO users (org_id, name, created_at) VALUES (?, ?, ?) ON CONFLICT (org_id, name) DO NOTHING', [
    orgId,
    name,
    at,
  ]);
  const row = await db.get<{ id: number }>('SELECT id FROM users WHERE org_id = ? AND name = ?', [orgId, name]);
  const id = Number(row!.id);
  await db.run(
    `INSERT INTO memberships (org_id, user_id, role, created_at) VALUES (?, ?, 'member', ?)
     ON CONFLICT (org_id, user_id) DO NOTHING`,
    [orgId, id, at],
  );
  return id;
}

/** Kept for the CLI's --admin: owner, or back to member. */
export async function setUserAdmin(db: SqlDb, userId: number, admin: boolean): Promise<void> {
  await db.run('UPDATE users SET admin = ? WHERE id = ?', [admin ? 1 : 0, userId]);
  await db.run('UPDATE memberships SET role = ? WHERE user_id = ?', [admin ? 'owner' : 'member', userId]);
}

export async function setMemberRole(db: SqlDb, orgId: number, userId: number, role: Role, at: number): Promise<void> {
  await db.run(
    `INSERT INTO memberships (org_id, user_id, role, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (org_id, user_id) DO UPDATE SET role = excluded.role`,
    [orgId, userId, role, at],
  );
}

export async function countOrganizations(db: SqlDb): Promise<number> {
  const row = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM organizations');
  return Number(row?.n ?? 0);
}

export async function createApiKey(db: SqlDb, k: NewApiKey): Promise<number> {
  const row = await db.transaction((tx) =>
    tx.get<{ id: number }>(
      `INSERT INTO api_keys (org_id, user_id, name, prefix, key_hash, created_at, expires_at, role)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      [k.orgId, k.userId, k.name, k.prefix, k.keyHash, k.createdAt, k.expiresAt, k.role ?? null],
    ),
  );
  return Number(row!.id);
}

export async function findApiKeyByHash(db: SqlDb, hash: string): Promise<ApiKeyRecord | undefined> {
  const row = await db.get<KeyRow>(`${KEY_SELECT} WHERE k.key_hash = ?`, [hash]);
  return row && toKey(row);
}

export async function listApiKeys(db: SqlDb, orgSlug?: string): Promise<ApiKeyRecord[]> {
  const rows =
    orgSlug === undefined
      ? await db.all<KeyRow>(`${KEY_SELECT} ORDER BY k.id`)
      : await db.all<KeyRow>(`${KEY_SELECT} WHERE o.slug = ? ORDER BY k.id`, [orgSlug]);
  return rows.map(toKey);
}

export async function findApiKey(db: SqlDb, orgId: number, id: number): Promise<ApiKeyRecord | undefined> {
  const row = await db.get<KeyRow>(`${KEY_SELECT} WHERE k.id = ? AND k.org_id = ?`, [id, orgId]);
  return row && toKey(row);
}

export async function revokeApiKey(db: SqlDb, idOrHash: number | string, at: number): Promise<boolean> {
  const column = typeof idOrHash === 'number' ? 'id' : 'key_hash';
  const changed = await db.run(`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE ${column} = ?`, [
    at,
    idOrHash,
  ]);
  return changed > 0;
}

export async function touchApiKey(db: SqlDb, id: number, at: number): Promise<void> {
  await db.run('UPDATE api_keys SET last_used_at = ? WHERE id = ?', [at, id]);
}

export async function getSecret(db: SqlDb, name: string, make: () => string): Promise<string> {
  const select = 'SELECT value FROM settings WHERE name = ?';
  const found = await db.get<{ value: string }>(select, [name]);
  if (found) return found.value;
  // Concurrent first calls (or replicas) race here; the first insert wins for everyone.
  await db.run('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING', [name, make()]);
  return (await db.get<{ value: string }>(select, [name]))!.value;
}
