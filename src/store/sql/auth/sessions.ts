/**
 * Dashboard session queries of the SQL metadata store (one primary-key row per session): a
 * key's sessions (api_key_id) and users' sessions (user_id, org_id).
 */
import { isRole } from '../../../domain/roles.js';
import type { SessionRecord, NewSession, SessionSummary } from '../../../domain/types.js';
import type { SqlDb } from '../db.js';

interface SessionRow {
  token_hash: string;
  api_key_id: number | null;
  key_hash: string | null;
  user_id: number | null;
  org_id: number | null;
  org_slug: string | null;
  member_role: string | null;
  created_at: number;
  last_used_at: number;
  expires_at: number;
}

export async function createSession(db: SqlDb, s: NewSession, maxPerKey: number): Promise<void> {
  // The newest maxPerKey of the key's (or user's) sessions stay, found through their index.
  const [column, owner] = s.user ? ['user_id', s.user.userId] : ['api_key_id', s.apiKeyId!];
  await db.transaction(async (tx) => {
    await tx.run('DELETE FROM sessions WHERE expires_at < ?', [s.createdAt]);
    await tx.run(
      `INSERT INTO sessions (token_hash, api_key_id, user_id, org_id, created_at, last_used_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [
        s.tokenHash,
        s.apiKeyId ?? null,
        s.user?.userId ?? null,
        s.user?.orgId ?? null,
        s.createdAt,
        s.createdAt,
        s.expiresAt,
      ],
    );
    await tx.run(
      `DELETE FROM sessions WHERE ${column} = ? AND token_hash NOT IN (
         SELECT token_hash FROM sessions WHERE ${column} = ? ORDER BY created_at DESC, token_hash LIMIT ?)`,
      [owner, owner, maxPerKey],
    );
  });
}

export async function findSession(db: SqlDb, tokenHash: string): Promise<SessionRecord | undefined> {
  const r = await db.get<SessionRow>(
    `SELECT s.token_hash, s.api_key_id, k.key_hash, s.user_id, s.org_id, o.slug AS org_slug, m.role AS member_role,
       s.created_at, s.last_used_at, s.expires_at
     FROM sessions s LEFT JOIN api_keys k ON k.id = s.api_key_id
       LEFT JOIN organizations o ON o.id = s.org_id
       LEFT JOIN memberships m ON m.org_id = s.org_id AND m.user_id = s.user_id
     WHERE s.token_hash = ?`,
    [tokenHash],
  );
  if (!r) return undefined;
  const user =
    r.user_id === null || r.org_id === null
      ? null
      : {
          userId: Number(r.user_id),
          orgId: Number(r.org_id),
          orgSlug: r.org_slug ?? '',
          role: isRole(r.member_role) ? r.member_role : null,
        };
  return {
    tokenHash: r.token_hash,
    apiKeyId: r.api_key_id === null ? null : Number(r.api_key_id),
    keyHash: r.key_hash,
    user,
    createdAt: Number(r.created_at),
    lastUsedAt: Number(r.last_used_at),
    expiresAt: Number(r.expires_at),
  };
}

export async function touchSession(db: SqlDb, tokenHash: string, at: number, expiresAt: number): Promise<void> {
  await db.run('UPDATE sessions SET last_used_at = ?, expires_at = ? WHERE token_hash = ?', [at, expiresAt, tokenHash]);
}

export async function deleteSession(db: SqlDb, tokenHash: string): Promise<boolean> {
  return (await db.run('DELETE FROM sessions WHERE token_hash = ?', [tokenHash])) > 0;
}

interface SummaryRow {
  token_hash: string;
  key_name: string | null;
  org_slug: string;
  created_at: number;
  last_used_at: number;
  expires_at: number;
}

/** The sessions of a user and of its keys, unexpired at `now`, newest first (at most 200). */
export async function listUserSessions(db: SqlDb, userId: number, now: number): Promise<SessionSummary[]> {
  const rows = await db.all<SummaryRow>(
    `SELECT * FROM (
       SELECT s.token_hash, NULL AS key_name, o.slug AS org_slug, s.created_at, s.last_used_at, s.expires_at
         FROM sessions s JOIN organizations o ON o.id = s.org_id WHERE s.user_id = ? AND s.expires_at > ?
       UNION ALL
       SELECT s.token_hash, k.name AS key_name, o.slug AS org_slug, s.created_at, s.last_used_at, s.expires_at
         FROM sessions s JOIN api_keys k ON k.id = s.api_key_id JOIN organizations o ON o.id = k.org_id
         WHERE k.user_id = ? AND s.expires_at > ?
     ) mine ORDER BY created_at DESC, token_hash LIMIT 200`,
    [userId, now, userId, now],
  );
  return rows.map((r) => ({
    id: r.token_hash.slice(0, 16),
    keyName: r.key_name,
    orgSlug: r.org_slug,
    createdAt: Number(r.created_at),
    lastUsedAt: Number(r.last_used_at),
    expiresAt: Number(r.expires_at),
  }));
}

/**
 * Ends sessions of a user: the one of its (or its keys') whose public id is `id`, or (id
 * undefined) all its password sessions but the one with token hash `except` (its keys'
 * sessions end with the keys). Returns how many ended.
 */
export async function deleteUserSessions(
  db: SqlDb,
  userId: number,
  o: { id?: string; except?: string },
): Promise<number> {
  const mine = `(user_id = ? OR api_key_id IN (SELECT id FROM api_keys WHERE user_id = ?))`;
  if (o.id !== undefined) {
    // The public id is a prefix of the hash: matched by range on the primary key.
    return db.run(`DELETE FROM sessions WHERE token_hash >= ? AND token_hash < ? AND ${mine}`, [
      o.id,
      `${o.id}g`,
      userId,
      userId,
    ]);
  }
  return db.run('DELETE FROM sessions WHERE user_id = ? AND token_hash <> ?', [userId, o.except ?? '']);
}
