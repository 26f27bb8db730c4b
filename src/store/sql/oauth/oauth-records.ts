/**
 * The OAuth provider library's records (oauth_records, migration 016): one row per model
 * and id, found by id, uid or user code while unexpired.
 */
import type { FoundOAuthRecord, OAuthRecord } from '../../oauth-store.js';
import type { SqlDb } from '../db.js';

interface RecordRow {
  payload: string;
  consumed_at: number | string | null;
}

const found = (r: RecordRow | undefined): FoundOAuthRecord | undefined =>
  r && { payload: r.payload, consumedAt: r.consumed_at === null ? null : Number(r.consumed_at) };

const UNEXPIRED = '(expires_at IS NULL OR expires_at > ?)';

export async function saveOAuthRecord(db: SqlDb, r: OAuthRecord): Promise<void> {
  await db.run(
    `INSERT INTO oauth_records (model, id, payload, grant_id, uid, user_code, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id,
       uid = excluded.uid, user_code = excluded.user_code, expires_at = excluded.expires_at`,
    [r.model, r.id, r.payload, r.grantId, r.uid, r.userCode, r.expiresAt],
  );
}

export async function findOAuthRecord(db: SqlDb, model: string, id: string, now: number) {
  const sql = `SELECT payload, consumed_at FROM oauth_records WHERE model = ? AND id = ? AND ${UNEXPIRED}`;
  return found(await db.get<RecordRow>(sql, [model, id, now]));
}

export async function findOAuthRecordByUid(db: SqlDb, model: string, uid: string, now: number) {
  const sql = `SELECT payload, consumed_at FROM oauth_records WHERE model = ? AND uid = ? AND ${UNEXPIRED}`;
  return found(await db.get<RecordRow>(sql, [model, uid, now]));
}

export async function findOAuthRecordByUserCode(db: SqlDb, model: string, userCode: string, now: number) {
  const sql = `SELECT payload, consumed_at FROM oauth_records WHERE model = ? AND user_code = ? AND ${UNEXPIRED}`;
  return found(await db.get<RecordRow>(sql, [model, userCode, now]));
}

export async function consumeOAuthRecord(db: SqlDb, model: string, id: string, at: number): Promise<void> {
  await db.run('UPDATE oauth_records SET consumed_at = ? WHERE model = ? AND id = ?', [at, model, id]);
}

export async function deleteOAuthRecord(db: SqlDb, model: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.run('DELETE FROM oauth_records WHERE model = ? AND id = ?', [model, id]);
    if (model === 'Grant') await tx.run('DELETE FROM oauth_grants WHERE grant_id = ?', [id]);
  });
}

export async function deleteOAuthGrantRecords(db: SqlDb, model: string, grantId: string): Promise<void> {
  await db.run('DELETE FROM oauth_records WHERE model = ? AND grant_id = ?', [model, grantId]);
}

export async function sweepOAuth(db: SqlDb, now: number): Promise<number> {
  return db.transaction(
    async (tx) =>
      (await tx.run('DELETE FROM oauth_records WHERE expires_at <= ?', [now])) +
      (await tx.run('DELETE FROM oauth_grants WHERE expires_at <= ?', [now])),
  );
}
