/**
 * Members, invitations and the audit log of the SQL metadata store.
 */
import { isRole } from '../../../domain/roles.js';
import type { AuditEvent, Invitation, Member, NewAuditEvent, NewInvitation } from '../../../domain/types.js';
import type { SqlDb } from '../db.js';

interface MemberRow {
  user_id: number;
  name: string;
  display_name: string | null;
  email: string | null;
  role: string;
  created_at: number;
}

export async function listMembers(db: SqlDb, orgId: number): Promise<Member[]> {
  const rows = await db.all<MemberRow>(
    `SELECT m.user_id, u.name, u.display_name, u.email, m.role, m.created_at
     FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.org_id = ? ORDER BY m.created_at, m.user_id LIMIT 1000`,
    [orgId],
  );
  return rows.flatMap((r) =>
    isRole(r.role)
      ? [
          {
            userId: Number(r.user_id),
            name: r.display_name ?? r.name,
            email: r.email,
            role: r.role,
            joinedAt: Number(r.created_at),
          },
        ]
      : [],
  );
}

export async function countOwners(db: SqlDb, orgId: number): Promise<number> {
  const row = await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM memberships WHERE org_id = ? AND role = 'owner'`, [
    orgId,
  ]);
  return Number(row?.n ?? 0);
}

export async function removeMember(db: SqlDb, orgId: number, userId: number, at: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const removed = await tx.run('DELETE FROM memberships WHERE org_id = ? AND user_id = ?', [orgId, userId]);
    if (removed === 0) return false;
    await tx.run('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE org_id = ? AND user_id = ?', [
      at,
      orgId,
      userId,
    ]);
    await tx.run(
      `DELETE FROM sessions WHERE (user_id = ? AND org_id = ?)
         OR api_key_id IN (SELECT id FROM api_keys WHERE org_id = ? AND user_id = ?)`,
      [userId, orgId, orgId, userId],
    );
    return true;
  });
}

export async function createInvitation(db: SqlDb, i: NewInvitation): Promise<void> {
  await db.run(
    `INSERT INTO invitations (token_hash, org_id, email, role, user_id, invited_by, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [i.tokenHash, i.orgId, i.email, i.role, i.userId, i.invitedBy, i.createdAt, i.expiresAt],
  );
}

export async function findInvitation(db: SqlDb, tokenHash: string, at: number): Promise<Invitation | undefined> {
  const row = await db.get<{ org_id: number; email: string | null; role: string; user_id: number | null }>(
    'SELECT org_id, email, role, user_id FROM invitations WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?',
    [tokenHash, at],
  );
  return row && isRole(row.role)
    ? {
        orgId: Number(row.org_id),
        email: row.email,
        role: row.role,
        userId: row.user_id === null ? null : Number(row.user_id),
      }
    : undefined;
}

export async function useInvitation(db: SqlDb, tokenHash: string, at: number): Promise<Invitation | undefined> {
  // A write that answers rows: on the writer (db.get reads from a read-only connection).
  const row = await db.transaction((tx) =>
    tx.get<{ org_id: number; email: string | null; role: string; user_id: number | null }>(
      `UPDATE invitations SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?
       RETURNING org_id, email, role, user_id`,
      [at, tokenHash, at],
    ),
  );
  if (!row || !isRole(row.role)) return undefined;
  return {
    orgId: Number(row.org_id),
    email: row.email,
    role: row.role,
    userId: row.user_id === null ? null : Number(row.user_id),
  };
}

export async function addAuditEvent(db: SqlDb, e: NewAuditEvent): Promise<void> {
  await db.run(
    `INSERT INTO audit_events (org_id, at, actor_user_id, actor_key_id, action, subject, detail)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    [e.orgId, e.at, e.actorUserId, e.actorKeyId, e.action, e.subject, e.detail],
  );
}

interface AuditRow {
  id: number;
  at: number;
  actor_user_id: number | null;
  actor_name: string | null;
  actor_key_id: number | null;
  action: string;
  subject: string;
  detail: string | null;
}

export async function listAuditEvents(
  db: SqlDb,
  orgId: number,
  o: { beforeId?: number; limit: number },
): Promise<AuditEvent[]> {
  const rows = await db.all<AuditRow>(
    `SELECT a.id, a.at, a.actor_user_id, COALESCE(u.display_name, u.name) AS actor_name, a.actor_key_id, a.action,
       a.subject, a.detail
     FROM audit_events a LEFT JOIN users u ON u.id = a.actor_user_id
     WHERE a.org_id = ? AND a.id < ? ORDER BY a.id DESC LIMIT ?`,
    [orgId, o.beforeId ?? Number.MAX_SAFE_INTEGER, o.limit],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    at: Number(r.at),
    actor: {
      userId: r.actor_user_id === null ? null : Number(r.actor_user_id),
      name: r.actor_name,
      keyId: r.actor_key_id === null ? null : Number(r.actor_key_id),
    },
    action: r.action,
    subject: r.subject,
    detail: r.detail,
  }));
}
