/**
 * Dashboard session queries of the SQL metadata store (one primary-key row per session).
 */
import type { SessionRecord, NewSession } from '../../../domain/types.js';
import type { SqlDb } from '../db.js';

interface SessionRow {
  token_hash: string;
  api_key_id: number;
  key_hash: string;
  created_at: number;
  last_used_at: number;
  expires_at: number;
}

export async function createSession(db: SqlDb, s: NewSession, maxPerKey: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.run('DELETE FROM sessions WHERE expires_at < ?', [s.createdAt]);
    await tx.run(
      `INSERT INTO sessions (token_hash, api_key_id, created_at, last_used_at, expires_at) VALUES (?, ?, ?, ?, ?)`,
      [s.tokenHash, s.apiKeyId, s.createdAt, s.createdAt, s.expiresAt],
    );
    // The newest maxPerKey stay (the index on (api_key_id, created_at) finds them).
    await tx.run(
      `DELETE FROM sessions WHERE api_key_id = ? AND token_hash NOT IN (
         SELECT token_hash FROM sessions WHERE api_key_id = ? ORDER BY created_at DESC, token_hash LIMIT ?)`,
      [s.apiKeyId, s.apiKeyId, maxPerKey],
    );
  });
}

export async function findSession(db: SqlDb, tokenHash: string): Promise<SessionRecord | undefined> {
  const r = await db.get<SessionRow>(
    `SELECT s.token_hash, s.api_key_id, k.key_hash, s.created_at, s.last_used_at, s.expires_at
     FROM sessions s JOIN api_keys k ON k.id = s.api_key_id WHERE s.token_hash = ?`,
    [tokenHash],
  );
  return (
    r && {
      tokenHash: r.token_hash,
      apiKeyId: Number(r.api_key_id),
      keyHash: r.key_hash,
      createdAt: Number(r.created_at),
      lastUsedAt: Number(r.last_used_at),
      expiresAt: Number(r.expires_at),
    }
  );
}

export async function touchSession(db: SqlDb, tokenHash: string, at: number, expiresAt: number): Promise<void> {
  await db.run('UPDATE sessions SET last_used_at = ?, expires_at = ? WHERE token_hash = ?', [at, expiresAt, tokenHash]);
}

export async function deleteSession(db: SqlDb, tokenHash: string): Promise<boolean> {
  return (await db.run('DELETE FROM sessions WHERE token_hash = ?', [tokenHash])) > 0;
}
