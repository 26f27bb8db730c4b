/** The cookie that carries a dashboard session's token (HttpOnly: page scripts never see it). */
export const SESSION_COOKIE = 'stepwise_session';

/** At most this many cookies of the session's name are tried (each may cost a lookup). */
const MAX_TOKENS = 32;

/**
 * The session tokens of a Cookie header, in its order, empty ones left out (at most 32). Every
 * cookie of the name counts: another site on the same host name (cookies ignore ports) can
 * set one with a longer path, which browsers send first, and it must not shadow ours.
 */
export function readSessionCookies(header: string | undefined): string[] {
  const tokens: string[] = [];
  for (const part of header?.split(';') ?? []) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    if (value !== '') tokens.push(value);
    if (tokens.length === MAX_TOKENS) break;
  }
  return tokens;
}

const attributes = (secure: boolean): string => `Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;

/** The Set-Cookie value that stores a token for `maxAgeSeconds`; Secure when the server is reached over https. */
export const sessionCookie = (token: string, maxAgeSeconds: number, secure: boolean): string =>
  `${SESSION_COOKIE}=${token}; Max-Age=${maxAgeSeconds}; ${attributes(secure)}`;

/** The Set-Cookie value that makes the browser drop the session cookie. */
export const clearedSessionCookie = (secure: boolean): string => `${SESSION_COOKIE}=; Max-Age=0; ${attributes(secure)}`;
