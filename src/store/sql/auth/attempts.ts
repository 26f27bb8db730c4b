/**
 * Counted attempts of the sign-in and registration limits (attempt_counts, migration 019):
 * one row per kind and key in a fixed window, which the first attempt after the previous
 * window's end starts.
 */
import type { AttemptCount, AttemptCounting, AttemptKey } from '../../metadata-store.js';
import type { SqlDb } from '../db.js';

interface CountRow {
  kind: string;
  key_hash: string;
  window_end: number | string;
  count: number | string;
}

const counted = (r: CountRow): AttemptCount => ({
  kind: r.kind,
  key: r.key_hash,
  windowEnd: Number(r.window_end),
  count: Number(r.count),
});

/**
 * One statement: an attempt counted for each key, in its window or a new one of `windowMs`
 * when that ended by `now`; a count past `cap` stays at cap + 1. A key without a row gets
 * one only while its kind has fewer than `maxKeys` rows (ended windows included until swept).
 */
export async function countAttempts(
  db: SqlDb,
  keys: readonly AttemptKey[],
  c: AttemptCounting,
): Promise<AttemptCount[]> {
  if (keys.length === 0) return [];
  // VALUES columns are column1, column2, ... on both engines.
  const sql = `INSERT INTO attempt_counts (kind, key_hash, window_end, count)
    SELECT v.column1, v.column2, v.column3, 1 FROM (VALUES ${keys.map(() => '(?, ?, CAST(? AS BIGINT))').join(', ')}) v
    WHERE EXISTS (SELECT 1 FROM attempt_counts a WHERE a.kind = v.column1 AND a.key_hash = v.column2)
      OR (SELECT COUNT(*) FROM attempt_counts a WHERE a.kind = v.column1) < ?
    ON CONFLICT (kind, key_hash) DO UPDATE SET
      window_end = CASE WHEN attempt_counts.window_end <= ? THEN excluded.window_end ELSE attempt_counts.window_end END,
      count = CASE WHEN attempt_counts.window_end <= ? THEN 1
        WHEN attempt_counts.count > ? THEN attempt_counts.count ELSE attempt_counts.count + 1 END
    RETURNING kind, key_hash, window_end, count`;
  const params = [...keys.flatMap((k) => [k.kind, k.key, c.now + c.windowMs]), c.maxKeys, c.now, c.now, c.cap];
  const rows = await db.transaction((tx) => tx.all<CountRow>(sql, params));
  return rows.map(counted);
}

/** The counts of these keys whose window has not ended at `now`. */
export async function findAttempts(db: SqlDb, keys: readonly AttemptKey[], now: number): Promise<AttemptCount[]> {
  if (keys.length === 0) return [];
  const rows = await db.all<CountRow>(
    `SELECT kind, key_hash, window_end, count FROM attempt_counts
     WHERE window_end > ? AND (${keys.map(() => '(kind = ? AND key_hash = ?)').join(' OR ')})`,
    [now, ...keys.flatMap((k) => [k.kind, k.key])],
  );
  return rows.map(counted);
}

export async function clearAttempts(db: SqlDb, key: AttemptKey): Promise<void> {
  await db.run('DELETE FROM attempt_counts WHERE kind = ? AND key_hash = ?', [key.kind, key.key]);
}

export async function sweepAttempts(db: SqlDb, now: number): Promise<number> {
  return db.run('DELETE FROM attempt_counts WHERE window_end <= ?', [now]);
}
