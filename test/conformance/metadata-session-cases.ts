/** MetadataStore conformance: dashboard sessions (stored by token hash, tied to an API key). */
import { describe, expect, it } from 'vitest';
import type { MetadataStore } from '../../src/store/metadata-store.js';
import { sha256, T0, twoOrgs, withStore, type OpenMetadataStore } from './metadata-suite-helpers.js';

const DAY = 86_400_000;

/** A key of `acme` with this clear text; returns its id and hash. */
async function acmeKey(s: MetadataStore, clear = 'sw_session_suite_key_0000000000') {
  const { org, user } = await twoOrgs(s);
  const keyHash = sha256(clear);
  const id = await s.createApiKey({
    orgId: org,
    userId: user,
    name: 'k',
    prefix: 'sw_sess',
    keyHash,
    createdAt: T0,
    expiresAt: null,
  });
  return { id, keyHash };
}

/** Registers the session tests. */
export function sessionCases(open: OpenMetadataStore): void {
  describe('sessions', () => {
    it(
      'a session is found by its token hash with its key, times and the key’s hash',
      withStore(open, async (s) => {
        const key = await acmeKey(s);
        await s.createSession(
          { tokenHash: sha256('token-1'), apiKeyId: key.id, createdAt: T0, expiresAt: T0 + DAY },
          100,
        );
        expect(await s.findSession(sha256('token-1'))).toEqual({
          tokenHash: sha256('token-1'),
          apiKeyId: key.id,
          keyHash: key.keyHash,
          user: null,
          createdAt: T0,
          lastUsedAt: T0,
          expiresAt: T0 + DAY,
        });
        expect(await s.findSession(sha256('token-2'))).toBeUndefined();
      }),
    );

    it(
      'touchSession records the use and moves the end',
      withStore(open, async (s) => {
        const key = await acmeKey(s);
        await s.createSession({ tokenHash: sha256('t'), apiKeyId: key.id, createdAt: T0, expiresAt: T0 + DAY }, 100);
        await s.touchSession(sha256('t'), T0 + 5000, T0 + 5000 + DAY);
        expect(await s.findSession(sha256('t'))).toMatchObject({ lastUsedAt: T0 + 5000, expiresAt: T0 + 5000 + DAY });
      }),
    );

    it(
      'deleteSession removes one session once and leaves the others',
      withStore(open, async (s) => {
        const key = await acmeKey(s);
        for (const t of ['a', 'b']) {
          await s.createSession({ tokenHash: sha256(t), apiKeyId: key.id, createdAt: T0, expiresAt: T0 + DAY }, 100);
        }
        expect(await s.deleteSession(sha256('a'))).toBe(true);
        expect(await s.deleteSession(sha256('a'))).toBe(false);
        expect(await s.findSession(sha256('a'))).toBeUndefined();
        expect(await s.findSession(sha256('b'))).toBeDefined();
      }),
    );

    it(
      'creating a session deletes the sessions that expired before it, and only those',
      withStore(open, async (s) => {
        const key = await acmeKey(s);
        await s.createSession({ tokenHash: sha256('old'), apiKeyId: key.id, createdAt: T0, expiresAt: T0 + 10 }, 100);
        await s.createSession({ tokenHash: sha256('live'), apiKeyId: key.id, createdAt: T0, expiresAt: T0 + DAY }, 100);
        await s.createSession(
          { tokenHash: sha256('new'), apiKeyId: key.id, createdAt: T0 + 20, expiresAt: T0 + DAY },
          100,
        );
        expect(await s.findSession(sha256('old'))).toBeUndefined();
        expect(await s.findSession(sha256('live'))).toBeDefined();
        expect(await s.findSession(sha256('new'))).toBeDefined();
      }),
    );

    it(
      'creating a session past maxPerKey ends the oldest sessions of that key only',
      withStore(open, async (s) => {
        const key = await acmeKey(s);
        const other = await acmeKey(s, 'sw_session_suite_key_1111111111');
        await s.createSession(
          { tokenHash: sha256('other'), apiKeyId: other.id, createdAt: T0, expiresAt: T0 + DAY },
          2,
        );
        for (const [i, t] of ['s1', 's2', 's3', 's4'].entries()) {
          await s.createSession({ tokenHash: sha256(t), apiKeyId: key.id, createdAt: T0 + i, expiresAt: T0 + DAY }, 2);
        }
        const live = async (t: string) => (await s.findSession(sha256(t))) !== undefined;
        expect([await live('s1'), await live('s2'), await live('s3'), await live('s4')]).toEqual([
          false,
          false,
          true,
          true,
        ]);
        expect(await live('other')).toBe(true);
      }),
    );
  });
}
