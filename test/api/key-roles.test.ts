/**
 * Keys belong to people (issue 29): a key acts with its user's role or a narrower one chosen
 * when it is made, never a wider one; a viewer key writes nothing; an admin manages the keys
 * of narrower users but not an owner's; an owner manages every key of the organization.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/domain/roles.js';
import { createApiKey } from '../../src/services/api-keys.js';
import { send, signIn } from '../helpers/session-api.js';
import { makeTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(() => t.close());

let orgs = 0;
/** A fresh organization with a user of each role (named after it); their first keys. */
async function org(): Promise<Record<Role, { id: number; key: string }>> {
  const orgSlug = `roles-${++orgs}`;
  const of = (role: Role) =>
    createApiKey(t.stores.metadata, { orgSlug, userName: role, name: role, expiresAt: null, role });
  return { owner: await of('owner'), admin: await of('admin'), member: await of('member'), viewer: await of('viewer') };
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const createKey = (key: string, body: Record<string, unknown>) =>
  send(t.app, { method: 'POST', url: '/api/keys', body, headers: bearer(key) });
const revoke = (id: number, key: string) =>
  send(t.app, { method: 'POST', url: `/api/keys/${id}/revoke`, headers: bearer(key) });
const createRun = (key: string) =>
  send(t.app, {
    method: 'POST',
    url: '/api/runs/create',
    body: { runName: 'r', projectName: 'p' },
    headers: bearer(key),
  });

describe('POST /api/keys with a role', () => {
  it('makes a key acting with that narrower role, shown as its role', async () => {
    const { member } = await org();
    const made = await createKey(member.key, { name: 'screen', role: 'viewer' });
    expect(made.status, made.text).toBe(200);
    expect(made.body).toMatchObject({ name: 'screen', role: 'viewer' });
    const run = await createRun(made.body.key as string);
    expect(run.status, run.text).toBe(403);
    expect(run.body).toEqual({ error: expect.stringContaining('member'), code: 'FORBIDDEN_ROLE' });
    expect((await createRun(member.key)).status).toBe(200);
  });

  it('refuses a role wider than the requester’s with FORBIDDEN_ROLE, and makes nothing', async () => {
    const { member, viewer } = await org();
    for (const [key, role] of [
      [member.key, 'admin'],
      [member.key, 'owner'],
      [viewer.key, 'member'],
    ] as const) {
      const res = await createKey(key, { name: 'wide', role });
      expect(res.status, res.text).toBe(403);
      expect(res.body).toEqual({ error: expect.stringContaining(role), code: 'FORBIDDEN_ROLE' });
    }
    const listed = await send(t.app, { url: '/api/keys', headers: bearer(member.key) });
    expect((listed.body.keys as { name: string }[]).map((k) => k.name)).toEqual(['member']);
  });

  it('gives a key made by a capped key (or its session) the same cap unless asked narrower', async () => {
    const { owner } = await org();
    const capped = (await createKey(owner.key, { name: 'ci', role: 'member' })).body.key as string;
    const child = await createKey(capped, { name: 'child' });
    expect(child.body).toMatchObject({ role: 'member' });
    expect((await createKey(capped, { name: 'up', role: 'admin' })).status).toBe(403);
    const session = await signIn(t.app, capped);
    const fromSession = await send(t.app, { method: 'POST', url: '/api/keys', body: { name: 's' }, token: session });
    expect(fromSession.body).toMatchObject({ role: 'member' });
  });

  it('is a 400 for text that is no role', async () => {
    const { owner } = await org();
    const res = await createKey(owner.key, { name: 'x', role: 'root' });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});

describe('who manages whose keys', () => {
  it('an admin revokes a member’s and a viewer’s key, not an owner’s or another admin’s', async () => {
    const { owner, admin, member, viewer } = await org();
    expect((await revoke(member.id, admin.key)).status).toBe(200);
    expect((await revoke(viewer.id, admin.key)).status).toBe(200);
    expect((await revoke(owner.id, admin.key)).status).toBe(404);
    const other = await createApiKey(t.stores.metadata, {
      orgSlug: `roles-${orgs}`,
      userName: 'admin-2',
      name: 'a2',
      expiresAt: null,
      role: 'admin',
    });
    expect((await revoke(other.id, admin.key)).status).toBe(404);
    expect((await revoke(admin.id, owner.key)).status).toBe(200);
  });

  it('members and viewers manage only their own keys', async () => {
    const { owner, admin, member, viewer } = await org();
    for (const id of [owner.id, admin.id, viewer.id]) expect((await revoke(id, member.key)).status).toBe(404);
    for (const id of [owner.id, admin.id, member.id]) expect((await revoke(id, viewer.key)).status).toBe(404);
    expect((await revoke(viewer.id, viewer.key)).status).toBe(200);
  });
});
