import { Type } from '@sinclair/typebox';
import type { Deps } from '../../services/context.js';
import type { SessionAuthenticator } from '../../services/session-authenticator.js';
import type { App } from '../app-types.js';
import { assertSameOrigin } from '../same-origin.js';
import { clearedSessionCookie, readSessionCookies, sessionCookie } from '../session-cookie.js';
import { Session } from '../schemas/session.js';
import { SignInBody } from '../schemas/account.js';
import { signInWithPassword } from '../../auth/accounts.js';
import type { SignInLimiter } from '../../auth/sign-in-limiter.js';
import { validAnswer } from './auth.js';

/**
 * POST /api/session (sign in with an API key, or an email and password: a session cookie
 * instead of the key in the page; failed password sign-ins are rate-limited per account and
 * per address) and DELETE /api/session (sign out: the session ends on the server). Both are public
 * and answer only requests from this server's own pages (or from clients without browser
 * headers).
 */
export function registerSessionRoutes(
  app: App,
  deps: Deps,
  sessions: SessionAuthenticator,
  limiter: SignInLimiter,
): void {
  const { publicUrl } = deps.config;
  const secure = publicUrl.startsWith('https://');

  app.post(
    '/api/session',
    { config: { public: true }, schema: { body: SignInBody, response: { 200: Session }, security: [] } },
    async (request, reply) => {
      assertSameOrigin(request, publicUrl);
      const body = request.body;
      const { principal, token } =
        'apiKey' in body
          ? await sessions.signIn(body.apiKey)
          : await signInWithPassword(deps, sessions, limiter, { ...body, address: request.ip });
      void reply.header('set-cookie', sessionCookie(token, sessions.maxAgeSeconds, secure));
      return validAnswer(principal);
    },
  );

  app.delete(
    '/api/session',
    { config: { public: true }, schema: { response: { 204: Type.Null() }, security: [] } },
    async (request, reply) => {
      assertSameOrigin(request, publicUrl);
      for (const token of readSessionCookies(request.headers.cookie)) await sessions.signOut(token);
      return reply.header('set-cookie', clearedSessionCookie(secure)).status(204).send(null);
    },
  );
}
