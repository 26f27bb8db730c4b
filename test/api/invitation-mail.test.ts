/**
 * Invitation mails (issue 29, docs/api.md §16): with STEPWISE_SMTP_URL set, POST
 * /api/members/invite sends the link to the invited address through a real SMTP server on
 * loopback and answers emailed: true; a refused or unreachable SMTP server still answers the
 * link (200, emailed: false).
 */
import net from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailInvitation } from '../../src/auth/invitation-mail.js';
import { send } from '../helpers/session-api.js';
import { makeTestApp, type TestApp } from '../helpers/test-app.js';

interface Received {
  from: string;
  user: unknown;
  to: string[];
  raw: string;
}

/** An SMTP receiver on loopback that keeps what it is sent (or refuses every recipient). */
async function startReceiver(refuse = false) {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, done) {
      if (auth.username === 'user' && auth.password === 'secret') done(null, { user: auth.username });
      else done(new Error('bad credentials'));
    },
    onRcptTo(address, _session, done) {
      done(refuse ? Object.assign(new Error('no such mailbox'), { responseCode: 550 }) : undefined);
    },
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          user: session.user,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as net.AddressInfo).port;
  return { received, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The subject and text of a plain-text message (its body as sent: 7bit or quoted-printable). */
function readMail(raw: string): { subject: string; text: string } {
  const [head, ...rest] = raw.split('\r\n\r\n');
  const headers = head!.replace(/\r\n[ \t]+/g, ' ');
  const subject = /^Subject: (.*)$/im.exec(headers)![1]!;
  let text = rest.join('\r\n\r\n');
  if (/^Content-Transfer-Encoding: quoted-printable$/im.test(headers)) {
    text = text
      .replace(/=\r\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  }
  return { subject, text: text.replace(/\r\n/g, '\n') };
}

/** A loopback port nothing listens on (connections to it are refused). */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

const invite = (t: TestApp, email: string, role = 'member') =>
  send(t.app, {
    method: 'POST',
    url: '/api/members/invite',
    body: { email, role },
    headers: { authorization: `Bearer ${t.key}` },
  });

describe('invitation mail through a real SMTP server', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let t: TestApp;
  beforeAll(async () => {
    receiver = await startReceiver();
    t = await makeTestApp({
      STEPWISE_SMTP_URL: `smtp://user:secret@127.0.0.1:${receiver.port}`,
      STEPWISE_SMTP_FROM: 'Team Stepwise <team@stepwise.test>',
    });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('sends the exact link to the invited address, naming the organization and role', async () => {
    const reply = await invite(t, 'Invitee@Mail.test', 'viewer');
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.emailed).toBe(true);
    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0]!;
    expect(got.to).toEqual(['invitee@mail.test']);
    expect(got.from).toBe('team@stepwise.test');
    expect(got.user).toBe('user');
    const mail = readMail(got.raw);
    expect(mail.subject).toBe(`You are invited to ${t.org} on Stepwise`);
    expect(mail.text).toContain(String(reply.body.url));
    expect(mail.text).toContain(`organization ${t.org}`);
    expect(mail.text).toContain('as viewer');
    expect(mail.text).toContain(String(reply.body.expiresAt));
  });
});

describe('a failing SMTP server does not fail the invitation', () => {
  it('a refused connection answers 200 with emailed: false', async () => {
    const t = await makeTestApp({ STEPWISE_SMTP_URL: `smtp://127.0.0.1:${await closedPort()}` });
    try {
      const reply = await invite(t, 'nobody@mail.test');
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toMatchObject({ url: expect.stringContaining('/join#token='), emailed: false });
    } finally {
      await t.close();
    }
  });

  it('a recipient the server refuses answers 200 with emailed: false', async () => {
    const receiver = await startReceiver(true);
    const t = await makeTestApp({ STEPWISE_SMTP_URL: `smtp://127.0.0.1:${receiver.port}` });
    try {
      const reply = await invite(t, 'refused@mail.test');
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.emailed).toBe(false);
      expect(receiver.received).toHaveLength(0);
    } finally {
      await t.close();
      await receiver.close();
    }
  });

  it('logs one warning naming the address, never the link or its token', async () => {
    const warnings: string[] = [];
    const url = 'http://localhost:3999/join#token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    const config = { smtpUrl: `smtp://u:pw@127.0.0.1:${await closedPort()}`, smtpFrom: 'Stepwise <s@localhost>' };
    const mail = { to: 'x@mail.test', orgSlug: 'acme', role: 'member' as const, url, expiresAt: Date.now() };
    expect(await mailInvitation(config, mail, (m) => warnings.push(m))).toBe(false);
    expect(warnings).toEqual([expect.stringContaining('x@mail.test')]);
    expect(warnings[0]).not.toContain('AAAAAAAA');
    expect(warnings[0]).not.toContain('pw');
  });
});
