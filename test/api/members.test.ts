/**
 * Members and invitations (issue 29): an admin invites by email with a role; the link works
 * once within 7 days and signs the new member in; admins change roles and remove members
 * (their keys and sessions are refused within a second, on another server too), each in the
 * audit log; an organization keeps an owner; a user of several organizations switches.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { App } from '../../src/api/app-types.js';
import { storeInvitation } from '../../src/auth/invitations.js';
import { createApiKey } from '../../src/services/api-keys.js';
import { openStores } from '../../src/store/open-stores.js';
import { sleep } from '../helpers/run-api.js';
import { send } from '../helpers/session-api.js';
import { makeTestApp, type TestApp } from '../helpers/test-app.js';
import { tempDir } from '../helpers/temp-dir.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(() => t.close());

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const tokenOf = (headers: Record<string, unknown>): string =>
  /^stepwise_session=([^;]+);/.exec(String(headers['set-cookie']))![1]!;

/** POST /api/invitations/accept with this body. */
const accept = (body: Record<string, unknown>) => send(t.app, { method: 'POST', url: '/api/invitations/accept', body });

let made = 0;
/** Invites a new address with `role` as `key`'s user and accepts; the member's session token and email. */
async function join(key: string, role = 'member', app: App = t.app) {
  const email = `m${++made}@members.test`;
  const invite = await send(app, {
    method: 'POST',
    url: '/api/members/invite',
    body: { email, role },
    headers: bearer(key),
  });
  expect(invite.status, invite.text).toBe(200);
  const token = String(invite.body.url).split('#token=')[1]!;
  const accepted = await send(app, {
    method: 'POST',
    url: '/api/invitations/accept',
    body: { token, name: `Member ${made}`, password: 'a long password' },
  });
  expect(accepted.status, accepted.text).toBe(200);
  const members = (await send(app, { url: '/api/members', headers: bearer(key) })).body.members as {
    userId: number;
    email: string;
  }[];
  return { email, session: tokenOf(accepted.headers), userId: members.find((m) => m.email === email)!.userId, token };
}

describe('invitations', () => {
  it('invite, accept, sign in: the member is listed with its role and name and can act as it', async () => {
    const invite = await send(t.app, {
      method: 'POST',
      url: '/api/members/invite',
      body: { email: 'New.Person@Members.test', role: 'member' },
      headers: bearer(t.key),
    });
    expect(invite.body).toEqual({
      url: expect.stringMatching(/\/join#token=[A-Za-z0-9_-]{43}$/),
      expiresAt: expect.any(String),
      emailed: false,
    });
    const days = (Date.parse(String(invite.body.expiresAt)) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    const token = String(invite.body.url).split('#token=')[1]!;
    const accepted = await accept({ token, name: 'New Person', password: 'a long password' });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.text).not.toContain('a long password');
    const session = tokenOf(accepted.headers);
    expect((await send(t.app, { url: '/api/account', token: session })).body).toMatchObject({
      name: 'New Person',
      email: 'new.person@members.test',
      organization: { slug: t.org, role: 'member' },
    });
    const run = await send(t.app, {
      method: 'POST',
      url: '/api/runs/create',
      body: { runName: 'r', projectName: 'p' },
      token: session,
    });
    expect(run.status, run.text).toBe(200);
    const details = await send(t.app, { url: `/api/runs/details/${run.body.runId}`, headers: bearer(t.key) });
    expect(details.body.createdBy).toEqual({ id: expect.any(Number), name: 'New Person' });
    const me = (await send(t.app, { url: '/api/account', token: session })).body.id;
    const stop = { runId: run.body.runId, status: 'COMPLETED' };
    await send(t.app, { method: 'POST', url: '/api/runs/status/update', body: stop, token: session });
    const history = await send(t.app, {
      url: `/api/runs/status/history?runId=${run.body.runId}`,
      headers: bearer(t.key),
    });
    // Created and stopped by the member's password session: its user, no key.
    expect((history.body.events as { actor: unknown }[]).map((e) => e.actor)).toEqual([
      { userId: Number(me), keyId: null },
      { userId: Number(me), keyId: null },
    ]);
    const members = await send(t.app, { url: '/api/members', headers: bearer(t.key) });
    expect(members.body.members).toContainEqual(
      expect.objectContaining({ name: 'New Person', email: 'new.person@members.test', role: 'member' }),
    );
    const signIn = await send(t.app, {
      method: 'POST',
      url: '/api/session',
      body: { email: 'new.person@members.test', password: 'a long password' },
    });
    expect(signIn.status).toBe(200);
    // Used once: again is a 400, and changes nothing.
    const again = await accept({ token, name: 'Someone Else', password: 'another password' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      error: 'this invitation link is unknown, already used or expired',
      code: 'BAD_REQUEST',
    });
  });

  it('refuses an expired link and an unknown one, and keeps a link whose password was refused', async () => {
    const orgId = await t.stores.metadata.ensureOrganization(t.org, 1);
    const token = 'E'.repeat(43);
    await t.stores.metadata.createInvitation({
      tokenHash: createHash('sha256').update(token).digest('hex'),
      orgId,
      email: 'late@members.test',
      role: 'member',
      userId: null,
      invitedBy: null,
      createdAt: Date.now() - 8 * 86_400_000,
      expiresAt: Date.now() - 1,
    });
    for (const tk of [token, 'U'.repeat(43), 'short']) {
      const res = await accept({ token: tk, name: 'L', password: 'a long password' });
      expect(res.status, res.text).toBe(400);
    }
    const invite = await send(t.app, {
      method: 'POST',
      url: '/api/members/invite',
      body: { email: 'x@members.test', role: 'viewer' },
      headers: bearer(t.key),
    });
    const live = String(invite.body.url).split('#token=')[1]!;
    const weak = await accept({ token: live, name: 'X', password: 'short' });
    expect(weak.status).toBe(400);
    const ok = await accept({ token: live, name: 'X', password: 'long enough now' });
    expect(ok.status, ok.text).toBe(200);
  });

  it('an admin invites viewers and members, not admins or owners; a member invites nobody', async () => {
    const admin = await join(t.key, 'admin');
    for (const role of ['admin', 'owner']) {
      const res = await send(t.app, {
        method: 'POST',
        url: '/api/members/invite',
        body: { email: 'y@members.test', role },
        token: admin.session,
      });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'FORBIDDEN_ROLE' });
    }
    expect(
      (
        await send(t.app, {
          method: 'POST',
          url: '/api/members/invite',
          body: { email: 'y@members.test', role: 'member' },
          token: admin.session,
        })
      ).status,
    ).toBe(200);
    const member = await join(t.key, 'member');
    const res = await send(t.app, { url: '/api/members', token: member.session });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'FORBIDDEN_ROLE' });
  });

  it('the first owner’s link sets that user’s email and password', async () => {
    const owner = (await t.stores.metadata.listApiKeys(t.org))[0]!;
    const link = await storeInvitation(t.stores.metadata, t.deps.config.publicUrl, {
      orgId: owner.orgId,
      email: null,
      role: 'owner',
      userId: owner.userId,
      invitedBy: null,
    });
    const token = link.url.split('#token=')[1]!;
    const noEmail = await accept({ token, name: 'Ann', password: 'the owner password' });
    expect(noEmail.status).toBe(400);
    const res = await accept({ token, name: 'Ann', password: 'the owner password', email: 'ann@acme.test' });
    expect(res.status, res.text).toBe(200);
    const signIn = await send(t.app, {
      method: 'POST',
      url: '/api/session',
      body: { email: 'ann@acme.test', password: 'the owner password' },
    });
    expect(signIn.status).toBe(200);
    expect((await send(t.app, { url: '/api/account', token: tokenOf(signIn.headers) })).body).toMatchObject({
      organization: { role: 'owner' },
      name: 'Ann',
    });
  });
});

describe('roles and removal', () => {
  it('an admin changes a member into a viewer, not an owner’s role; the audit log has it', async () => {
    const admin = await join(t.key, 'admin');
    const member = await join(t.key, 'member');
    const res = await send(t.app, {
      method: 'POST',
      url: `/api/members/${member.userId}/role`,
      body: { role: 'viewer' },
      token: admin.session,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ userId: member.userId, role: 'viewer' });
    const ownerId = (await t.stores.metadata.listApiKeys(t.org))[0]!.userId;
    const up = await send(t.app, {
      method: 'POST',
      url: `/api/members/${ownerId}/role`,
      body: { role: 'viewer' },
      token: admin.session,
    });
    expect(up.status).toBe(403);
    const audit = await send(t.app, { url: '/api/audit', headers: bearer(t.key) });
    expect(audit.body.events).toContainEqual(
      expect.objectContaining({
        action: 'member.role',
        subject: `user:${member.userId}`,
        detail: 'member -> viewer',
        actor: expect.objectContaining({ userId: admin.userId, keyId: null }),
      }),
    );
  });

  it('keeps at least one owner', async () => {
    const own = await makeTestApp();
    try {
      const ownerId = (await own.stores.metadata.listApiKeys(own.org))[0]!.userId;
      for (const req of [
        { method: 'POST' as const, url: `/api/members/${ownerId}/role`, body: { role: 'admin' } },
        { method: 'DELETE' as const, url: `/api/members/${ownerId}` },
      ]) {
        const res = await send(own.app, { ...req, headers: bearer(own.key) });
        expect(res.status, res.text).toBe(409);
      }
    } finally {
      await own.close();
    }
  });

  it('removing a member ends its keys and sessions within a second on another server, and is audited', async () => {
    let other: App;
    let closeOther: () => Promise<void>;
    if (t.databaseUrl) {
      // Another server process's view: its own connections to the same PostgreSQL database.
      const dir = tempDir();
      const stores = await openStores({ dataDir: dir, databaseUrl: t.databaseUrl });
      other = await buildApp({ ...t.deps, metadata: stores.metadata, series: stores.series });
      closeOther = async () => {
        await other.close();
        await stores.close();
      };
    } else {
      other = await buildApp(t.deps);
      closeOther = () => other.close();
    }
    try {
      const member = await join(t.key, 'member');
      const key = (await send(t.app, { method: 'POST', url: '/api/keys', body: { name: 'ci' }, token: member.session }))
        .body.key as string;
      const keySession = tokenOf(
        (await send(other, { method: 'POST', url: '/api/session', body: { apiKey: key } })).headers,
      );
      // Both servers have the credentials in their caches.
      for (const app of [t.app, other]) {
        expect((await send(app, { url: '/api/runs/projects', token: member.session })).status).toBe(200);
        expect((await send(app, { url: '/api/runs/projects', headers: bearer(key) })).status).toBe(200);
        expect((await send(app, { url: '/api/runs/projects', token: keySession })).status).toBe(200);
      }
      const removed = await send(t.app, {
        method: 'DELETE',
        url: `/api/members/${member.userId}`,
        headers: bearer(t.key),
      });
      expect(removed.status, removed.text).toBe(204);
      const started = performance.now();
      // Fails if a request sent 1.2 s or more after the removal is still accepted (timed when
      // sent: on a loaded machine an answer, and so the next poll, can come late).
      const refusedEverywhere = async () => {
        for (const app of [t.app, other]) {
          for (const auth of [{ token: member.session }, { headers: bearer(key) }, { token: keySession }]) {
            const sent = performance.now();
            if ((await send(app, { url: '/api/runs/projects', ...auth })).status !== 401) {
              expect(sent - started, 'still accepted').toBeLessThan(1_200);
              return false;
            }
          }
        }
        return true;
      };
      while (!(await refusedEverywhere())) await sleep(25);
      const audit = await send(t.app, { url: '/api/audit', headers: bearer(t.key) });
      expect((audit.body.events as { action: string; subject: string }[])[0]).toMatchObject({
        action: 'member.remove',
        subject: `user:${member.userId}`,
      });
      expect(
        (await send(t.app, { method: 'DELETE', url: `/api/members/${member.userId}`, headers: bearer(t.key) })).status,
      ).toBe(404);
    } finally {
      await closeOther();
    }
  });
});

describe('several organizations', () => {
  it('an existing user joins another organization with its own password and switches between them', async () => {
    const first = await join(t.key, 'member');
    const second = await createApiKey(t.stores.metadata, {
      orgSlug: `${t.org}-two`,
      userName: 'boss',
      name: 'k',
      expiresAt: null,
      role: 'owner',
    });
    const invite = await send(t.app, {
      method: 'POST',
      url: '/api/members/invite',
      body: { email: first.email, role: 'viewer' },
      headers: bearer(second.key),
    });
    const token = String(invite.body.url).split('#token=')[1]!;
    const wrong = await accept({ token, name: 'X', password: 'not the password' });
    expect(wrong.status).toBe(403);
    const ok = await accept({ token, name: 'X', password: 'a long password' });
    expect(ok.status, ok.text).toBe(200);
    const account = await send(t.app, { url: '/api/account', token: first.session });
    expect(account.body.organizations).toEqual([
      { id: expect.any(String), slug: t.org, role: 'member' },
      { id: expect.any(String), slug: `${t.org}-two`, role: 'viewer' },
    ]);
    const switched = await send(t.app, {
      method: 'POST',
      url: '/api/account/organization',
      body: { organization: `${t.org}-two` },
      token: first.session,
    });
    expect(switched.status, switched.text).toBe(200);
    expect(switched.body).toMatchObject({ organization: { slug: `${t.org}-two` } });
    const now = tokenOf(switched.headers);
    expect((await send(t.app, { url: '/api/account', token: now })).body).toMatchObject({
      organization: { slug: `${t.org}-two`, role: 'viewer' },
    });
    const elsewhere = await send(t.app, {
      method: 'POST',
      url: '/api/account/organization',
      body: { organization: 'nowhere' },
      token: now,
    });
    expect(elsewhere.status).toBe(404);
    const byKey = await send(t.app, {
      method: 'POST',
      url: '/api/account/organization',
      body: { organization: `${t.org}-two` },
      headers: bearer(t.key),
    });
    expect(byKey.status).toBe(404);
  });
});
