/**
 * Accounts and memberships of the SQL metadata store: users by email, their password
 * hashes, the organizations they belong to and their role in each.
 */
import { isRole, type Role } from '../../../domain/roles.js';
import type { Membership, UserAccount } from '../../../domain/types.js';
import type { SqlDb } from '../db.js';

interface UserRow {
  id: number;
  org_id: number;
  name: string;
  email: string | null;
  display_name: string | null;
  password_hash: string | null;
}

const USER_SELECT = 'SELECT id, org_id, name, email, display_name, password_hash FROM users';

const toUser = (r: UserRow): UserAccount => ({
  id: Number(r.id),
  homeOrgId: Number(r.org_id),
  name: r.name,
  email: r.email,
  displayName: r.display_name,
  passwordHash: r.password_hash,
});

export async function findUserByEmail(db: SqlDb, email: string): Promise<UserAccount | undefined> {
  const row = await db.get<UserRow>(`${USER_SELECT} WHERE email = ?`, [email]);
  return row && toUser(row);
}

export async function findUser(db: SqlDb, userId: number): Promise<UserAccount | undefined> {
  const row = await db.get<UserRow>(`${USER_SELECT} WHERE id = ?`, [userId]);
  return row && toUser(row);
}

export async function createAccount(
  db: SqlDb,
  a: { orgId: number; email: string; displayName: string; passwordHash: string | null; role: Role; at: number },
): Promise<number> {
  return db.transaction(async (tx) => {
    // The user's name in its home organization is its email: unique there as everywhere.
    const row = await tx.get<{ id: number }>(
      `INSERT INTO users (org_id, name, created_at, email, display_name, password_hash)
       VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
      [a.orgId, a.email, a.at, a.email, a.displayName, a.passwordHash],
    );
    const id = Number(row!.id);
    await tx.run('INSERT INTO memberships (org_id, user_id, role, created_at) VALUES (?, ?, ?, ?)', [
      a.orgId,
      id,
      a.role,
      a.at,
    ]);
    return id;
  });
}

export async function updateAccount(
  db: SqlDb,
  userId: number,
  change: { email?: string; displayName?: string; passwordHash?: string },
): Promise<void> {
  const columns = { email: change.email, display_name: change.displayName, password_hash: change.passwordHash };
  const set = Object.entries(columns).filter((c): c is [string, string] => c[1] !== undefined);
  if (set.length === 0) return;
  await db.run(`UPDATE users SET ${set.map(([c]) => `${c} = ?`).join(', ')} WHERE id = ?`, [
    ...set.map(([, v]) => v),
    userId,
  ]);
}

export async function listMemberships(db: SqlDb, userId: number): Promise<Membership[]> {
  const rows = await db.all<{ org_id: number; slug: string; role: string }>(
    `SELECT m.org_id, o.slug, m.role FROM memberships m JOIN organizations o ON o.id = m.org_id
     WHERE m.user_id = ? ORDER BY o.slug LIMIT 1000`,
    [userId],
  );
  return rows.flatMap((r) => (isRole(r.role) ? [{ orgId: Number(r.org_id), orgSlug: r.slug, role: r.role }] : []));
}

export async function findMemberRole(db: SqlDb, orgId: number, userId: number): Promise<Role | undefined> {
  const row = await db.get<{ role: string }>('SELECT role FROM memberships WHERE org_id = ? AND user_id = ?', [
    orgId,
    userId,
  ]);
  return row && isRole(row.role) ? row.role : undefined;
}
