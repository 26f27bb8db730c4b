/**
 * Mails an invitation link through the SMTP server of STEPWISE_SMTP_URL (docs/api.md §16).
 * A failed send never fails the invitation: the link is still answered to copy.
 */
import type { Config } from '../config.js';
import type { Role } from '../domain/roles.js';

/** What an invitation mail says: who is invited, to which organization, as what, by which link. */
export interface InvitationMail {
  to: string;
  orgSlug: string;
  role: Role;
  url: string;
  expiresAt: number;
}

/** An SMTP server that does not answer within this long counts as a failed send. */
const SMTP_TIMEOUT_MS = 10_000;

/** The subject and plain-text body of an invitation mail. */
export function invitationText(m: InvitationMail): { subject: string; text: string } {
  return {
    subject: `You are invited to ${m.orgSlug} on Stepwise`,
    text:
      `You are invited to join the organization ${m.orgSlug} on Stepwise as ${m.role}.\n\n` +
      `Open this link to choose your name and password:\n${m.url}\n\n` +
      `The link works once, until ${new Date(m.expiresAt).toISOString()}.\n`,
  };
}

/**
 * Sends the invitation when SMTP is configured; true when the server accepted it. Failures are
 * logged by `warn` (never with the link, which holds the token) and answer false.
 */
export async function mailInvitation(
  config: Pick<Config, 'smtpUrl' | 'smtpFrom'>,
  m: InvitationMail,
  warn: (message: string) => void,
): Promise<boolean> {
  if (config.smtpUrl === undefined) return false;
  // Loaded on the first mail rather than at start-up (nodemailer is large; most servers mail nothing).
  const { createTransport } = await import('nodemailer');
  const transport = createTransport({
    url: config.smtpUrl,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  try {
    const info = await transport.sendMail({ from: config.smtpFrom, to: m.to, ...invitationText(m) });
    return info.accepted.length > 0;
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    warn(`invitation mail to ${m.to} not sent: ${typeof code === 'string' ? code : 'SMTP error'}`);
    return false;
  } finally {
    transport.close();
  }
}
