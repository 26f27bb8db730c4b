/**
 * Accounts (issue 29): sign-in by email and password into the same cookie session as a key,
 * failed sign-ins rate-limited per account and per address, password changes, a user's own
 * sessions; passwords are never answered or logged.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { hashPassword } from '../../src/auth/passwords.js';
import type { Role } from '../../src/domain/roles.js';
import { passwordSignIn, send, setCookieOf } from '../helpers/session-api.js';
import { makeTestApp, TEST_PASSWORD_COST, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(() => t.close());

let people = 0;
/** A new user of organization acme with an email and password; returns both. */
async function person(role: Role = 'member'): Promise<{ email: string; password: string }> {
  const email = `person-${++people}@example.test`;
  const password = `pw-${people}-correct horse`;
  const orgId = await t.stores.metadata.ensureOrganization(t.org, Date.now());
  const passwordHash = await hashPassword(password, TEST_PASSWORD_COST);
  await t.stores.metadata.createAccount({ orgId, email, displayName: `Person ${people}`, passwordHash, role, at: 1 });
  return { email, password };
}

const signIn = passwordSignIn;

const tokenOf = (res: { headers: Record<string, unknown> }): string =>
  /^stepwise_session=([^;]+);/.exec(String(res.headers['set-cookie']))![1]!;

describe('POST /api/session {email, password}', () => {
  it('opens a cookie session acting as the user with its role, like a key’s', async () => {
    const { email, password } = await person('viewer');
    const res = await signIn(t.app, ` ${email.toUpperCase()} `, password);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      valid: true,
      organization: { id: expect.any(String), slug: t.org },
      user: { id: expect.any(String) },
    });
    const token = tokenOf(res.res);
    const account = await send(t.app, { url: '/api/account', token });
    expect(account.body).toMatchObject({
      email,
      name: expect.stringMatching(/^Person/),
      hasPassword: true,
      viaKey: false,
      organization: { slug: t.org, role: 'viewer' },
    });
    expect((await send(t.app, { url: '/api/runs/projects', token })).status).toBe(200);
    const write = await send(t.app, {
      method: 'POST',
      url: '/api/runs/create',
      body: { runName: 'r', projectName: 'p' },
      token,
    });
    expect(write.status).toBe(403);
    expect(write.body).toMatchObject({ code: 'FORBIDDEN_ROLE' });
    expect(account.text + JSON.stringify(res.body)).not.toContain(password);
  });

  it('answers one 401 for a wrong password, an unknown email and a malformed one, setting no cookie', async () => {
    const { email } = await person();
    for (const [e, p] of [
      [email, 'wrong password!'],
      ['nobody@example.test', 'whatever password'],
      ['not an email', 'whatever password'],
    ] as const) {
      const res = await signIn(t.app, e, p, '10.0.0.2');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'Wrong email or password', code: 'UNAUTHORIZED' });
      expect(setCookieOf({ status: res.status, body: res.body, headers: res.res.headers })).toBe('');
    }
  });

  it('ends 300 wrong passwords for one account in 429, while another account signs in from the same address', async () => {
    const victim = await person();
    const other = await person();
    const statuses = new Map<number, number>();
    for (let i = 0; i < 300; i++) {
      const res = await signIn(t.app, victim.email, `guess number ${i}`, '10.0.0.3');
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 401: 10, 429: 290 });
    // Locked: the right password does not get through either, from any address.
    expect((await signIn(t.app, victim.email, victim.password, '10.0.0.4')).status).toBe(429);
    const res = await signIn(t.app, other.email, other.password, '10.0.0.3');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('never answers 5xx in a loop of 1,000 tries, and locks an address past 100 failures', async () => {
    const own = await makeTestApp();
    try {
      const orgId = await own.stores.metadata.ensureOrganization('loop', 1);
      const passwordHash = await hashPassword('the right password', TEST_PASSWORD_COST);
      await own.stores.metadata.createAccount({
        orgId,
        email: 'a@loop.test',
        displayName: 'A',
        passwordHash,
        role: 'member',
        at: 1,
      });
      const statuses = new Map<number, number>();
      for (let i = 0; i < 1000; i++) {
        const email = i % 3 === 0 ? 'a@loop.test' : `guess-${i}@loop.test`;
        const res = await signIn(own.app, email, i % 7 === 0 ? 'the right password' : `wrong ${i}`, '10.0.9.9');
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
      }
      expect(statuses.get(429)).toBeGreaterThan(800);
      // Another address is not locked with it.
      expect((await signIn(own.app, 'b@loop.test', 'wrong password', '10.0.9.8')).status).toBe(401);
    } finally {
      await own.close();
    }
  }, 120_000);
});

describe('the account', () => {
  it('changes its password with the current one, ending its other password sessions but not this one', async () => {
    const { email, password } = await person();
    const first = tokenOf((await signIn(t.app, email, password)).res);
    const second = tokenOf((await signIn(t.app, email, password)).res);
    const change = (currentPassword: string, newPassword: string) =>
      send(t.app, {
        method: 'POST',
        url: '/api/account/password',
        body: { currentPassword, newPassword },
        token: first,
      });
    const wrong = await change('not it at all', 'a new password 1');
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatchObject({ code: 'FORBIDDEN' });
    const short = await change(password, 'short');
    expect(short.status).toBe(400);
    expect(short.text).not.toContain('short"');
    expect((await change(password, 'a new password 1')).status).toBe(204);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await send(t.app, { url: '/api/account', token: second })).status).toBe(401);
    expect((await send(t.app, { url: '/api/account', token: first })).status).toBe(200);
    expect((await signIn(t.app, email, password)).status).toBe(401);
    expect((await signIn(t.app, email, 'a new password 1')).status).toBe(200);
  });

  it('lists its sessions (this one marked) and ends another one', async () => {
    const { email, password } = await person();
    const mine = tokenOf((await signIn(t.app, email, password)).res);
    const other = tokenOf((await signIn(t.app, email, password)).res);
    const listed = await send(t.app, { url: '/api/account/sessions', token: mine });
    const sessions = listed.body.sessions as { id: string; current: boolean; keyName: string | null }[];
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    expect(listed.text).not.toContain(mine);
    const otherId = sessions.find((s) => !s.current)!.id;
    const ended = await send(t.app, { method: 'DELETE', url: `/api/account/sessions/${otherId}`, token: mine });
    expect(ended.status).toBe(204);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await send(t.app, { url: '/api/account', token: other })).status).toBe(401);
    expect((await send(t.app, { url: '/api/account', token: mine })).status).toBe(200);
  });
});

describe('passwords in logs', () => {
  it('appear in no log line, whatever is sent', async () => {
    let log = '';
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        log += chunk.toString();
        done();
      },
    });
    const app = await buildApp(t.deps, { logger: { level: 'trace', stream } });
    try {
      const { email, password } = await person();
      const secret = 'zq-secret-password-9';
      await signIn(app, email, secret);
      await signIn(app, email, password);
      await app.inject({
        method: 'POST',
        url: '/api/session',
        headers: { 'content-type': 'application/json' },
        payload: `{"email":"${email}","password":"${secret}"`,
      });
      await app.inject({
        method: 'POST',
        url: '/api/session',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email: 3, password: secret }),
      });
      await app.inject({
        method: 'POST',
        url: '/api/session',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email, password: secret.repeat(100) }),
      });
      // Request lines are off (app.ts); the stream does capture what the app logs, at every level.
      app.log.trace('probe-line');
      expect(log).toContain('probe-line');
      expect(log).not.toContain(secret);
      expect(log).not.toContain(password);
    } finally {
      await app.close();
    }
  });
});
