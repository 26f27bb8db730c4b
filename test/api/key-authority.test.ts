/**
 * No key outranks the key that made it (issue 25, item 4): a key, or a dashboard session of
 * it, makes keys that expire no later than itself (a later expiry or none is a 400 naming
 * its expiry); a key lists and revokes only its own user's keys (another user's is a 404)
 * unless its user is the organization's admin: the bootstrap user, or a user the CLI marks
 * with `keys create --admin`. Key ids are decimal digits without leading zeros.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { keys as keysCli } from '../../src/cli/keys.js';
import { createApiKey, hashApiKey } from '../../src/services/api-keys.js';
import { bootstrapInstallation } from '../../src/services/bootstrap.js';
import { holdClock } from '../helpers/held-clock.js';
import { sleep } from '../helpers/run-api.js';
import { send, signIn } from '../helpers/session-api.js';
import { makeTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(() => t.close());

let orgs = 0;
/** A fresh organization with keys of two users, `ann` and `cy`, neither of them admin. */
async function org(): Promise<{ slug: string; ann: Made; cy: Made }> {
  const slug = `org-${++orgs}`;
  return { slug, ann: await keyOf(slug, 'ann'), cy: await keyOf(slug, 'cy') };
}

interface Made {
  id: number;
  key: string;
}
const keyOf = (orgSlug: string, userName: string, o: { expiresAt?: number | null; admin?: boolean } = {}) =>
  createApiKey(t.stores.metadata, { orgSlug, userName, name: userName, expiresAt: o.expiresAt ?? null, ...o });

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const createKey = (key: string, body: Record<string, unknown>) =>
  send(t.app, { method: 'POST', url: '/api/keys', body, headers: bearer(key) });
const revoke = (id: number | string, key: string) =>
  send(t.app, { method: 'POST', url: `/api/keys/${id}/revoke`, headers: bearer(key) });
const validate = (key: string) => send(t.app, { url: '/api/runs/auth/validate', headers: bearer(key) });

async function listedIds(key: string): Promise<number[]> {
  const res = await send(t.app, { url: '/api/keys', headers: bearer(key) });
  expect(res.status, res.text).toBe(200);
  return (res.body.keys as { id: number }[]).map((k) => k.id);
}

describe('a created key expires no later than the key that made it', () => {
  const HOUR = 3_600_000;
  const TOO_LATE: { name: string; body: (parentExpiry: number) => Record<string, unknown> }[] = [
    { name: 'no expiry (field left out)', body: () => ({ name: 'child' }) },
    { name: 'no expiry (null)', body: () => ({ name: 'child', expiresAt: null }) },
    {
      name: 'an expiry a millisecond later',
      body: (at) => ({ name: 'child', expiresAt: new Date(at + 1).toISOString() }),
    },
    { name: 'an expiry years later', body: () => ({ name: 'child', expiresAt: '2999-01-31' }) },
  ];

  it.each(TOO_LATE)('asking an expiring key for $name is a 400 naming its expiry, and makes nothing', async (c) => {
    const { slug } = await org();
    const parentExpiry = Date.now() + HOUR;
    const parent = await keyOf(slug, 'ann', { expiresAt: parentExpiry });
    const before = await listedIds(parent.key);
    const res = await createKey(parent.key, c.body(parentExpiry));
    expect(res.status, res.text).toBe(400);
    expect(res.body).toEqual({
      error: `expiresAt must be no later than ${new Date(parentExpiry).toISOString()}, when the key making this request expires (a key cannot outlive the key that made it)`,
      code: 'BAD_REQUEST',
    });
    expect(await listedIds(parent.key)).toEqual(before);
  });

  it('an expiring key makes a key expiring at or before it, and the answer shows that expiry', async () => {
    const { slug } = await org();
    const parentExpiry = Date.now() + HOUR;
    const parent = await keyOf(slug, 'ann', { expiresAt: parentExpiry });
    for (const at of [parentExpiry, parentExpiry - 60_000]) {
      const res = await createKey(parent.key, { name: 'child', expiresAt: new Date(at).toISOString() });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ expiresAt: new Date(at).toISOString(), status: 'ACTIVE' });
    }
  });

  it('a dashboard session acts as its key: no key outliving that key, whatever the session’s own lifetime', async () => {
    const { slug } = await org();
    const parentExpiry = Date.now() + HOUR;
    const parent = await keyOf(slug, 'ann', { expiresAt: parentExpiry });
    const token = await signIn(t.app, parent.key);
    const refused = await send(t.app, { method: 'POST', url: '/api/keys', token, body: { name: 'child' } });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.error).toContain(new Date(parentExpiry).toISOString());
    const inTime = new Date(parentExpiry - 1000).toISOString();
    const made = await send(t.app, { method: 'POST', url: '/api/keys', token, body: { name: 'c', expiresAt: inTime } });
    expect(made.status, made.text).toBe(200);
    expect(made.body.expiresAt).toBe(inTime);
  });

  it('the key a short-lived key made stops working when its parent does', async () => {
    const { slug } = await org();
    holdClock();
    const parentExpiry = Date.now() + 1500;
    const parent = await keyOf(slug, 'ann', { expiresAt: parentExpiry });
    const res = await createKey(parent.key, { name: 'child', expiresAt: new Date(parentExpiry).toISOString() });
    expect(res.status, res.text).toBe(200);
    const child = String(res.body.key);
    expect((await validate(child)).status).toBe(200);
    vi.advanceTimersByTime(parentExpiry - Date.now() + 1100); // past the expiry and the one-second key cache
    for (const key of [parent.key, child]) {
      expect((await validate(key)).body).toEqual({ error: 'API key has expired', code: 'UNAUTHORIZED' });
    }
  });
});

describe('a key manages only its own user’s keys unless its user is the organization’s admin', () => {
  it('a key lists only its own user’s keys', async () => {
    const { ann, cy } = await org();
    const ids = await listedIds(ann.key);
    expect(ids).toContain(ann.id);
    expect(ids).not.toContain(cy.id);
  });

  it('revoking another user’s key is a 404 and that key keeps working; the user’s own other key can be revoked', async () => {
    const { slug, ann, cy } = await org();
    const res = await revoke(cy.id, ann.key);
    expect(res.status, res.text).toBe(404);
    expect(res.body).toEqual({ error: `API key ${cy.id} not found`, code: 'NOT_FOUND' });
    await sleep(1100);
    expect((await validate(cy.key)).status).toBe(200);
    const second = await keyOf(slug, 'ann');
    expect((await revoke(second.id, ann.key)).status).toBe(200);
  });

  it('the admin lists and revokes every key of its organization, and no other organization’s', async () => {
    const { slug, ann, cy } = await org();
    const admin = await keyOf(slug, 'boss', { admin: true });
    const rival = await org();
    expect(await listedIds(admin.key)).toEqual(expect.arrayContaining([ann.id, cy.id, admin.id]));
    expect(await listedIds(admin.key)).not.toContain(rival.ann.id);
    const res = await revoke(cy.id, admin.key);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: cy.id, userName: 'cy', status: 'REVOKED' });
    expect((await revoke(rival.cy.id, admin.key)).status).toBe(404);
  });

  it('a key of the bootstrap user is the admin; another user’s key of its organization cannot revoke it', async () => {
    const bootstrapKey = `sw_${'b'.repeat(43)}`;
    expect(await bootstrapInstallation(t.stores.metadata, t.dataDir, bootstrapKey)).toBe(bootstrapKey);
    const bootstrapId = (await t.stores.metadata.findApiKeyByHash(hashApiKey(bootstrapKey)))!.id;
    const ann = await keyOf('default', 'ann');
    for (const id of [String(bootstrapId), `0${bootstrapId}`, `00${bootstrapId}`]) {
      const res = await revoke(id, ann.key);
      expect([400, 404], res.text).toContain(res.status);
      expect(res.body).toEqual({
        error: expect.any(String),
        code: res.status === 400 ? 'VALIDATION_FAILED' : 'NOT_FOUND',
      });
    }
    expect(await listedIds(ann.key)).not.toContain(bootstrapId);
    await sleep(1100);
    expect((await validate(bootstrapKey)).status).toBe(200);
    expect(await listedIds(bootstrapKey)).toEqual(expect.arrayContaining([bootstrapId, ann.id]));
    expect((await revoke(ann.id, bootstrapKey)).status).toBe(200);
  });

  it('the CLI’s `keys create --admin` marks the user admin; without it a user is not', async () => {
    const { slug, cy } = await org();
    const store = t.databaseUrl ? ['--database-url', t.databaseUrl] : ['--data', path.resolve(t.dataDir)];
    const cli = async (...args: string[]): Promise<string> => {
      const lines: string[] = [];
      expect(await keysCli(['create', ...store, '--org', slug, ...args], (l) => lines.push(l))).toBe(0);
      return lines[lines.length - 1]!;
    };
    const plain = await cli('--user', 'dee');
    expect(await listedIds(plain)).not.toContain(cy.id);
    const admin = await cli('--user', 'eve', '--admin', '--name', 'ops');
    expect(await listedIds(admin)).toContain(cy.id);
    expect((await revoke(cy.id, admin)).status).toBe(200);
  });
});

describe('key ids', () => {
  it('a key id with leading zeros (or in any form but plain decimal digits) is a 400 and revokes nothing', async () => {
    const { ann } = await org();
    for (const text of [`0${ann.id}`, `00${ann.id}`, `+${ann.id}`, `${ann.id}.0`, `${ann.id}e0`]) {
      const res = await revoke(text, ann.key);
      expect(res.status, `${text}: ${res.text}`).toBe(400);
      expect(res.body).toEqual({
        error: 'params: keyId must be an integer written in decimal digits without leading zeros',
        code: 'VALIDATION_FAILED',
      });
    }
    await sleep(1100);
    expect((await validate(ann.key)).status).toBe(200);
  });
});
