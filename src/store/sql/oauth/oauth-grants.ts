/**
 * Who OAuth grants act as (oauth_grants, migration 016): a user in an organization through
 * the sign-in key of the session that allowed it, read with that user's role and that key's
 * state now; a user's grants by client (connected apps).
 */
import { isRole } from '../../../domain/roles.js';
import type { NewOAuthGrant, OAuthAppRecord, OAuthGrantRecord } from '../../oauth-store.js';
import type { SqlDb } from '../db.js';

type Num = number | string;
const num = (v: Num): number => Number(v);
const numOrNull = (v: Num | null): number | null => (v === null ? null : Number(v));
const scopesOf = (text: string): string[] => text.split(' ').filter((s) => s !== '');

interface GrantRow {
  grant_id: string;
  client_id: string;
  user_id: Num;
  org_id: Num;
  key_id: Num | null;
  scopes: string;
  created_at: Num;
  last_used_at: Num | null;
  expires_at: Num;
  org_slug: string;
  member_role: string | null;
  key_role: string | null;
  key_revoked_at: Num | null;
  key_expires_at: Num | null;
}

/** Records a grant and, in the same transaction, keeps its client for good (no end: never swept). */
export async function createOAuthGrant(db: SqlDb, g: NewOAuthGrant): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.run(
      `INSERT INTO oauth_grants (grant_id, client_id, user_id, org_id, key_id, scopes, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [g.grantId, g.clientId, g.userId, g.orgId, g.keyId, g.scopes.join(' '), g.createdAt, g.expiresAt],
    );
    await tx.run("UPDATE oauth_records SET expires_at = NULL WHERE model = 'Client' AND id = ?", [g.clientId]);
  });
}

export async function findOAuthGrant(db: SqlDb, grantId: string, now: number): Promise<OAuthGrantRecord | undefined> {
  const r = await db.get<GrantRow>(
    `SELECT g.grant_id, g.client_id, g.user_id, g.org_id, g.key_id, g.scopes, g.created_at, g.last_used_at,
       g.expires_at, o.slug AS org_slug, m.role AS member_role, k.role AS key_role,
       k.revoked_at AS key_revoked_at, k.expires_at AS key_expires_at
     FROM oauth_grants g JOIN organizations o ON o.id = g.org_id
       LEFT JOIN memberships m ON m.org_id = g.org_id AND m.user_id = g.user_id
       LEFT JOIN api_keys k ON k.id = g.key_id
     WHERE g.grant_id = ? AND g.expires_at > ?`,
    [grantId, now],
  );
  if (!r) return undefined;
  return {
    grantId: r.grant_id,
    clientId: r.client_id,
    userId: num(r.user_id),
    orgId: num(r.org_id),
    keyId: numOrNull(r.key_id),
    scopes: scopesOf(r.scopes),
    createdAt: num(r.created_at),
    expiresAt: num(r.expires_at),
    lastUsedAt: numOrNull(r.last_used_at),
    orgSlug: r.org_slug,
    memberRole: isRole(r.member_role) ? r.member_role : null,
    keyRole: isRole(r.key_role) ? r.key_role : null,
    keyRevokedAt: numOrNull(r.key_revoked_at),
    keyExpiresAt: numOrNull(r.key_expires_at),
  };
}

export async function touchOAuthGrant(db: SqlDb, grantId: string, at: number): Promise<void> {
  await db.run('UPDATE oauth_grants SET last_used_at = ? WHERE grant_id = ?', [at, grantId]);
}

interface AppRow {
  client_id: string;
  client_payload: string | null;
  scopes: string;
  authorized_at: Num;
  last_used_at: Num | null;
}

export async function listOAuthApps(
  db: SqlDb,
  userId: number,
  orgId: number,
  now: number,
  limit: number,
): Promise<OAuthAppRecord[]> {
  const rows = await db.all<AppRow>(
    `SELECT g.client_id, MIN(c.payload) AS client_payload, g.scopes, MIN(g.created_at) AS authorized_at,
       MAX(g.last_used_at) AS last_used_at
     FROM oauth_grants g LEFT JOIN oauth_records c ON c.model = 'Client' AND c.id = g.client_id
     WHERE g.user_id = ? AND g.org_id = ? AND g.expires_at > ?
     GROUP BY g.client_id, g.scopes
     ORDER BY g.client_id LIMIT ?`,
    [userId, orgId, now, limit * 2],
  );
  const apps = new Map<string, OAuthAppRecord>();
  for (const r of rows) {
    const app = apps.get(r.client_id);
    const lastUsedAt = numOrNull(r.last_used_at);
    if (!app) {
      apps.set(r.client_id, {
        clientId: r.client_id,
        clientPayload: r.client_payload,
        scopes: scopesOf(r.scopes),
        authorizedAt: num(r.authorized_at),
        lastUsedAt,
      });
      continue;
    }
    app.scopes = [...new Set([...app.scopes, ...scopesOf(r.scopes)])].sort();
    app.authorizedAt = Math.min(app.authorizedAt, num(r.authorized_at));
    if (lastUsedAt !== null) app.lastUsedAt = Math.max(app.lastUsedAt ?? 0, lastUsedAt);
  }
  const sortKey = (a: OAuthAppRecord) => a.lastUsedAt ?? a.authorizedAt;
  return [...apps.values()].sort((a, b) => sortKey(b) - sortKey(a)).slice(0, limit);
}

export async function deleteOAuthApp(db: SqlDb, userId: number, orgId: number, clientId: string): Promise<number> {
  return db.transaction(async (tx) => {
    const ids = await tx.column<string>(
      'SELECT grant_id FROM oauth_grants WHERE user_id = ? AND org_id = ? AND client_id = ?',
      [userId, orgId, clientId],
    );
    for (const id of ids) {
      await tx.run('DELETE FROM oauth_records WHERE grant_id = ?', [id]);
      await tx.run("DELETE FROM oauth_records WHERE model = 'Grant' AND id = ?", [id]);
      await tx.run('DELETE FROM oauth_grants WHERE grant_id = ?', [id]);
    }
    return ids.length;
  });
}
