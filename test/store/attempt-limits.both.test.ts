/**
 * Migration 19 on both engines: the attempt counts of the sign-in and registration limits
 * (one upsert-increment a counted attempt, a new window once the last ended, a count that
 * stops one past the cap, at most so many keys a kind, reads of live windows, clearing, the
 * sweep of ended windows), and an end 24 h on for OAuth clients that had none and that no
 * grant names.
 */
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrations/index.js';
import { SqlMetadataStore } from '../../src/store/sql/metadata-store.js';
import { openPostgres } from '../../src/store/postgres/postgres-db.js';
import { emptyPostgresUrl, rawEngines, type RawEngine } from '../helpers/test-database.js';

const DAY = 24 * 3600_000;
const T = 1_700_000_000_000;
/** Counting at `now` in windows of 1 s, capped at 3, at most 3 keys a kind. */
const at = (now: number) => ({ now, windowMs: 1000, cap: 3, maxKeys: 3 });

/** rawEngines, but PostgreSQL's database empty (rawEngines gives a migrated clone there). */
const emptyEngines = rawEngines('stepwise-attempts-').map((e): RawEngine =>
  e.name === 'postgres'
    ? {
        name: e.name,
        open: async () => {
          const empty = await emptyPostgresUrl();
          const db = await openPostgres(empty.url);
          return {
            db,
            done: async () => {
              await db.close();
              await empty.drop();
            },
          };
        },
      }
    : e,
);

describe.each(emptyEngines)('migration 19 ($name)', ({ open }) => {
  it('counts attempts per kind and key in fixed windows, capped, cleared and swept', async () => {
    const { db, done } = await open();
    try {
      await migrate(db);
      const s = new SqlMetadataStore(db);
      const a = { kind: 'sign-in-account', key: 'a'.repeat(64) };
      const ip = { kind: 'sign-in-address', key: 'b'.repeat(64) };
      const counts = async (now: number) =>
        (await s.findAttempts([a, ip], now)).map((c) => [c.kind, c.count, c.windowEnd]).sort();
      expect(await s.countAttempts([a, ip], at(T))).toEqual(
        expect.arrayContaining([
          { ...a, count: 1, windowEnd: T + 1000 },
          { ...ip, count: 1, windowEnd: T + 1000 },
        ]),
      );
      for (let i = 0; i < 5; i++) await s.countAttempts([a], at(T + 10 + i));
      // Past the cap of 3 the count stays at 4; the window is the first attempt's.
      expect(await counts(T + 999)).toEqual([
        ['sign-in-account', 4, T + 1000],
        ['sign-in-address', 1, T + 1000],
      ]);
      // Ended windows are not read, and the next attempt starts a new one.
      expect(await counts(T + 1000)).toEqual([]);
      expect(await s.countAttempts([a], at(T + 1500))).toEqual([{ ...a, count: 1, windowEnd: T + 2500 }]);
      await s.clearAttempts(a);
      expect(await counts(T + 1600)).toEqual([]);
      await s.countAttempts([a], at(T + 1700));
      // The sweep deletes the address's ended window and keeps the account's live one.
      expect(await s.sweepAttempts(T + 1700)).toBe(1);
      expect(Number((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM attempt_counts'))!.n)).toBe(1);
      // At most 3 keys of a kind: a fourth is not counted until the sweep makes room; known keys go on.
      const k = (n: number) => ({ kind: 'registration', key: String(n).repeat(64) });
      for (const n of [1, 2, 3]) expect(await s.countAttempts([k(n)], at(T + 1800))).toHaveLength(1);
      expect(await s.countAttempts([k(4), k(1)], at(T + 1800))).toEqual([{ ...k(1), count: 2, windowEnd: T + 2800 }]);
      expect(await s.countAttempts([a], at(T + 1800))).toHaveLength(1);
      expect(await s.sweepAttempts(T + 2800)).toBe(4);
      expect(await s.countAttempts([k(4)], at(T + 2800))).toEqual([{ ...k(4), count: 1, windowEnd: T + 3800 }]);
    } finally {
      await done();
    }
  });

  it('gives clients with no end and no grant an end 24 h after it runs, and leaves the rest', async () => {
    const { db, done } = await open();
    try {
      await migrate(db, { upTo: 18 });
      const s = new SqlMetadataStore(db);
      const org = await s.ensureOrganization('acme', 1);
      const user = await s.ensureUser(org, 'ann', 1);
      const record = (model: string, id: string, expiresAt: number | null) =>
        db.run('INSERT INTO oauth_records (model, id, payload, expires_at) VALUES (?, ?, ?, ?)', [
          model,
          id,
          '{}',
          expiresAt,
        ]);
      await record('Client', 'lone', null);
      await record('Client', 'granted', null);
      await record('Client', 'ending', T);
      await record('Session', 'forever', null);
      await db.run(
        `INSERT INTO oauth_grants (grant_id, client_id, user_id, org_id, scopes, created_at, expires_at)
         VALUES ('g1', 'granted', ?, ?, 'runs:read', 1, ?)`,
        [user, org, T + DAY],
      );
      const before = Date.now();
      expect(await migrate(db)).toContain(19);
      const after = Date.now();
      const ends = Object.fromEntries(
        (await db.all<{ id: string; e: number | string | null }>('SELECT id, expires_at AS e FROM oauth_records')).map(
          (r) => [r.id, r.e === null ? null : Number(r.e)],
        ),
      );
      expect(ends.lone).toBeGreaterThanOrEqual(before + DAY);
      expect(ends.lone).toBeLessThanOrEqual(after + DAY);
      expect(ends).toMatchObject({ granted: null, ending: T, forever: null });
    } finally {
      await done();
    }
  });
});
