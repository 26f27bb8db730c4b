import { Type } from '@sinclair/typebox';
import type { Deps } from '../../services/context.js';
import type { SessionAuthenticator } from '../../services/session-authenticator.js';
import type { App } from '../app-types.js';
import { assertSameOrigin } from '../same-origin.js';
import { clearedSessionCookie, readSessionCookies, sessionCookie } from '../session-cookie.js';
import { Session } from '../schemas/session.js';
import { validAnswer } from './auth.js';

const SignInBody = Type.Object({ apiKey: Type.String() });

/**
 * POST /api/session (sign in with an API key: a session cookie instead of the key in the
 * page) and DELETE /api/session (sign out: the session ends on the server). Both are public
 * and answer only requests from this server's own pages (or from clients without browser
 * headers).
 */
export function registerSessionRoutes(app: App, deps: Deps, sessions: SessionAuthenticator): void {
  const { publicUrl } = deps.config;
  const secure = publicUrl.startsWith('https://');

  app.post(
    '/api/session',
    { config: { public: true }, schema: { body: SignInBody, response: { 200: Session }, security: [] } },
    async (request, reply) => {
      assertSameOrigin(request, publicUrl);
      const { principal, token } = await sessions.signIn(request.body.apiKey);
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
