/** The cookie that carries a dashboard session's token (HttpOnly: page scripts never see it). */
export const SESSION_COOKIE = 'stepwise_session';

/** The session token of a Cookie header, or undefined when it has none (or an empty one). */
export function readSessionCookie(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    if (value !== '') return value;
  }
  return undefined;
}

const attributes = (secure: boolean): string => `Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;

/** The Set-Cookie value that stores a token for `maxAgeSeconds`; Secure when the server is reached over https. */
export const sessionCookie = (token: string, maxAgeSeconds: number, secure: boolean): string =>
  `${SESSION_COOKIE}=${token}; Max-Age=${maxAgeSeconds}; ${attributes(secure)}`;

/** The Set-Cookie value that makes the browser drop the session cookie. */
export const clearedSessionCookie = (secure: boolean): string => `${SESSION_COOKIE}=; Max-Age=0; ${attributes(secure)}`;
