import type { FastifyRequest } from 'fastify';
import type { Ctx, Deps } from '../../services/context.js';
import type { OAuthOnDemand } from '../../auth/oauth/oauth-on-demand.js';
import type { Principal } from '../../domain/types.js';
import type { Authenticator } from '../../services/authenticator.js';
import { KEY_PREFIX } from '../../services/api-keys.js';
import { SessionAuthenticator } from '../../services/session-authenticator.js';
import { atLeast } from '../../domain/roles.js';
import { AppError, forbiddenRole, unauthorized } from '../../errors.js';
import type { App } from '../app-types.js';
import { assertSameOrigin } from '../same-origin.js';
import { readSessionCookies, sessionCookie } from '../session-cookie.js';

/** What the auth hook checks credentials with. */
export interface AuthOptions {
  keys: Authenticator;
  sessions: SessionAuthenticator;
  /** The OAuth server whose access tokens routes marked `config.oauthResource` accept. */
  oauth: OAuthOnDemand;
  /** The configured public URL: its origin counts as this server's own, and https makes cookies Secure. */
  publicUrl: string;
}

/**
 * Requires credentials on every route not marked `config: { public: true }`: an
 * `Authorization: Bearer` key, or else the dashboard's session cookie (the first of the
 * cookies of its name that is a live session), which is accepted from this server's own
 * pages only (CROSS_ORIGIN otherwise). On a route marked `config.oauthResource`, a Bearer
 * that is no key is tried as an OAuth access token (docs/api.md §18). A use that extends the
 * session renews the cookie. Then the one role check: the requester's role must be at least
 * the route's `config.role` (owner when it declares none), FORBIDDEN_ROLE otherwise.
 */
export function installAuth(app: App, { keys, sessions, oauth, publicUrl }: AuthOptions): void {
  const secure = publicUrl.startsWith('https://');
  app.decorateRequest('principal', null);
  app.decorateRequest('sessionHash', null);
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config.public === true) return;
    if (request.routeOptions.url === undefined) return; // no route: the 404 handler answers
    const header = request.headers.authorization;
    const tokens = header === undefined || header.trim() === '' ? readSessionCookies(request.headers.cookie) : [];
    if (tokens.length === 0) {
      request.principal =
        request.routeOptions.config.oauthResource === true
          ? await resourcePrincipal(keys, oauth, header)
          : await keys.authenticate(header);
    } else {
      assertSameOrigin(request, publicUrl);
      const { token, principal, renewed } = await sessions.authenticateAny(tokens);
      request.principal = principal;
      request.sessionHash = SessionAuthenticator.hashOf(token);
      if (renewed) void reply.header('set-cookie', sessionCookie(token, sessions.maxAgeSeconds, secure));
    }
    const needed = request.routeOptions.config.role ?? 'owner';
    if (!atLeast(request.principal.role, needed)) {
      throw forbiddenRole(`this request needs the role ${needed} or wider; yours is ${request.principal.role}`);
    }
  });
}

/**
 * The principal of a Bearer key, or else of a Bearer OAuth access token: a Bearer that is
 * neither keeps the key's reason (Invalid API key); a known token that may not act, its own.
 */
async function resourcePrincipal(
  keys: Authenticator,
  oauth: OAuthOnDemand,
  header: string | undefined,
): Promise<Principal> {
  const bearer = /^bearer\s+(\S+)\s*$/i.exec(header?.trim() ?? '')?.[1];
  if (bearer === undefined || bearer.startsWith(KEY_PREFIX)) return keys.authenticate(header);
  let keyError: AppError;
  try {
    return await keys.authenticate(header);
  } catch (err) {
    if (!(err instanceof AppError) || err.message !== 'Invalid API key') throw err;
    keyError = err;
  }
  try {
    return await (await oauth.get()).tokens.authenticate(bearer);
  } catch (err) {
    throw err instanceof AppError && err.message === 'Invalid access token' ? keyError : err;
  }
}

/** The request's context for the services; throws UNAUTHORIZED if the route skipped auth. */
export function ctxOf(deps: Deps, request: FastifyRequest): Ctx {
  if (!request.principal) throw unauthorized('Missing API key');
  return { deps, principal: request.principal };
}
