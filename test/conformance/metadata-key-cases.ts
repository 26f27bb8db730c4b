/** MetadataStore conformance: organizations, users, API keys and installation secrets. */
import type { NewApiKey } from '../../src/domain/types.js';
import { describe, expect, it } from 'vitest';
import type { MetadataStore } from '../../src/store/metadata-store.js';
import { sha256, T0, twoOrgs, withStore, type OpenMetadataStore } from './metadata-suite-helpers.js';

const CLEAR = ['sw_live_4f1c0d9a8b7e6f5a4b3c2d1e0f9a8b7c', 'sw_live_0a1b2c3d4e5f60718293a4b5c6d7e8f9'] as const;

/** Stores the key `clear` (its hash only) for a user; returns the key's id. */
function storeKey(s: MetadataStore, orgId: number, userId: number, clear: string, over: Partial<NewApiKey> = {}) {
  return s.createApiKey({
    orgId,
    userId,
    name: `key ${clear.slice(-4)}`,
    prefix: clear.slice(0, 8),
    keyHash: sha256(clear),
    createdAt: T0,
    expiresAt: null,
    ...over,
  });
}

/** Registers the organization, user, key and secret tests. */
export function keyCases(open: OpenMetadataStore): void {
  describe('organizations and users', () => {
    it(
      'ensureOrganization creates an organization once and returns the same id every time',
      withStore(open, async (s) => {
        expect(await s.countOrganizations()).toBe(0);
        const acme = await s.ensureOrganization('acme', T0);
        expect(await s.ensureOrganization('acme', T0 + 5)).toBe(acme);
        const globex = await s.ensureOrganization('globex', T0);
        expect(globex).not.toBe(acme);
        expect(await s.countOrganizations()).toBe(2);
      }),
    );

    it(
      'ensureUser creates a user once per organization and a same-named user elsewhere is another user',
      withStore(open, async (s) => {
        const { org, other, user, otherUser } = await twoOrgs(s);
        expect(await s.ensureUser(org, 'alice', T0 + 1)).toBe(user);
        expect(await s.ensureUser(other, 'alice', T0 + 1)).toBe(otherUser);
        expect(otherUser).not.toBe(user);
        expect(await s.ensureUser(org, 'bob', T0)).not.toBe(user);
      }),
    );
  });

  describe('organization admins', () => {
    it(
      'setUserAdmin marks one user admin (and unmarks it), which every key of that user then shows',
      withStore(open, async (s) => {
        const { org, user, other, otherUser } = await twoOrgs(s);
        const bob = await s.ensureUser(org, 'bob', T0);
        await storeKey(s, org, user, CLEAR[0]);
        await storeKey(s, other, otherUser, CLEAR[1]);
        const admins = async () =>
          (await s.listApiKeys()).map((k) => [k.orgSlug, k.userName, k.userAdmin]).sort((a, b) => (a < b ? -1 : 1));
        expect(await admins()).toEqual([
          ['acme', 'alice', false],
          ['globex', 'alice', false],
        ]);
        await s.setUserAdmin(user, true);
        await s.setUserAdmin(bob, true);
        expect(await admins()).toEqual([
          ['acme', 'alice', true],
          ['globex', 'alice', false],
        ]);
        expect((await s.findApiKeyByHash(sha256(CLEAR[0])))?.userAdmin).toBe(true);
        await s.setUserAdmin(user, false);
        expect((await s.findApiKeyByHash(sha256(CLEAR[0])))?.userAdmin).toBe(false);
      }),
    );
  });

  describe('API keys', () => {
    it(
      'a key is found by its hash with its organization, user, name, prefix and times',
      withStore(open, async (s) => {
        const { org, user } = await twoOrgs(s);
        const id = await storeKey(s, org, user, CLEAR[0], { name: 'laptop', expiresAt: T0 + 1000 });
        expect(await s.findApiKeyByHash(sha256(CLEAR[0]))).toEqual({
          id,
          orgId: org,
          orgSlug: 'acme',
          userId: user,
          userName: 'alice',
          userAdmin: false,
          userRole: 'member',
          role: null,
          name: 'laptop',
          prefix: CLEAR[0].slice(0, 8),
          keyHash: sha256(CLEAR[0]),
          createdAt: T0,
          expiresAt: T0 + 1000,
          revokedAt: null,
          lastUsedAt: null,
        });
        expect(await s.findApiKeyByHash(sha256('sw_live_unknown'))).toBeUndefined();
      }),
    );

    it(
      'the clear key appears in no stored record, only its SHA-256 hash does',
      withStore(open, async (s) => {
        const { org, user, other, otherUser } = await twoOrgs(s);
        await storeKey(s, org, user, CLEAR[0]);
        await storeKey(s, other, otherUser, CLEAR[1]);
        const records = [
          await s.findApiKeyByHash(sha256(CLEAR[0])),
          await s.findApiKeyByHash(sha256(CLEAR[1])),
          ...(await s.listApiKeys()),
        ];
        const text = JSON.stringify(records);
        for (const clear of CLEAR) {
          expect(text).not.toContain(clear);
          expect(text).not.toContain(clear.slice(8));
          expect(text).toContain(sha256(clear));
        }
      }),
    );

    it(
      'listApiKeys lists keys oldest first, all of them or those of one organization',
      withStore(open, async (s) => {
        const { org, user, other, otherUser } = await twoOrgs(s);
        const first = await storeKey(s, org, user, CLEAR[0]);
        const foreign = await storeKey(s, other, otherUser, CLEAR[1]);
        const second = await storeKey(s, org, user, 'sw_live_third_key_of_the_suite_000');
        expect((await s.listApiKeys()).map((k) => k.id)).toEqual([first, foreign, second]);
        expect((await s.listApiKeys('acme')).map((k) => k.id)).toEqual([first, second]);
        expect((await s.listApiKeys('globex')).map((k) => k.orgSlug)).toEqual(['globex']);
        expect(await s.listApiKeys('initech')).toEqual([]);
      }),
    );

    it(
      'findApiKey finds a key by id within its organization only, revoked ones included',
      withStore(open, async (s) => {
        const { org, user, other, otherUser } = await twoOrgs(s);
        const id = await storeKey(s, org, user, CLEAR[0], { name: 'laptop' });
        const foreign = await storeKey(s, other, otherUser, CLEAR[1]);
        expect(await s.findApiKey(org, id)).toEqual(await s.findApiKeyByHash(sha256(CLEAR[0])));
        expect(await s.findApiKey(other, id)).toBeUndefined();
        expect(await s.findApiKey(org, foreign)).toBeUndefined();
        expect(await s.findApiKey(org, 999_999)).toBeUndefined();
        await s.revokeApiKey(id, T0 + 10);
        expect(await s.findApiKey(org, id)).toMatchObject({ id, name: 'laptop', revokedAt: T0 + 10 });
      }),
    );

    for (const by of ['id', 'hash'] as const) {
      it(
        `revoking by ${by} is idempotent and keeps the time of the first revocation`,
        withStore(open, async (s) => {
          const { org, user } = await twoOrgs(s);
          const id = await storeKey(s, org, user, CLEAR[0]);
          const keep = await storeKey(s, org, user, CLEAR[1]);
          const target = by === 'id' ? id : sha256(CLEAR[0]);
          expect(await s.revokeApiKey(target, T0 + 10)).toBe(true);
          expect(await s.revokeApiKey(target, T0 + 20)).toBe(true);
          expect((await s.findApiKeyByHash(sha256(CLEAR[0])))?.revokedAt).toBe(T0 + 10);
          expect((await s.findApiKeyByHash(sha256(CLEAR[1])))?.revokedAt).toBeNull();
          expect((await s.listApiKeys()).find((k) => k.id === keep)?.revokedAt).toBeNull();
          expect(await s.revokeApiKey(by === 'id' ? 999_999 : sha256('nope'), T0)).toBe(false);
        }),
      );
    }

    it(
      'touchApiKey records the last use, and a later touch moves it',
      withStore(open, async (s) => {
        const { org, user } = await twoOrgs(s);
        const id = await storeKey(s, org, user, CLEAR[0]);
        await s.touchApiKey(id, T0 + 100);
        expect((await s.findApiKeyByHash(sha256(CLEAR[0])))?.lastUsedAt).toBe(T0 + 100);
        await s.touchApiKey(id, T0 + 200);
        expect((await s.findApiKeyByHash(sha256(CLEAR[0])))?.lastUsedAt).toBe(T0 + 200);
        expect((await s.listApiKeys('acme'))[0]?.lastUsedAt).toBe(T0 + 200);
      }),
    );
  });

  describe('installation secrets', () => {
    it(
      'getSecret returns the value made on the first call on every later call',
      withStore(open, async (s) => {
        const first = await s.getSecret('url-signing', () => 'secret-one');
        expect(first).toBe('secret-one');
        expect(await s.getSecret('url-signing', () => 'secret-two')).toBe('secret-one');
        expect(await s.getSecret('other', () => 'secret-three')).toBe('secret-three');
        expect(await s.getSecret('url-signing', () => 'secret-four')).toBe('secret-one');
      }),
    );

    it(
      'eight concurrent first calls of getSecret all get one and the same value',
      withStore(open, async (s) => {
        const values = await Promise.all(
          Array.from({ length: 8 }, (_, i) => s.getSecret('url-signing', () => `candidate-${i}`)),
        );
        expect(new Set(values).size).toBe(1);
        expect(values[0]).toMatch(/^candidate-[0-7]$/);
        expect(await s.getSecret('url-signing', () => 'late')).toBe(values[0]);
      }),
    );
  });
}
