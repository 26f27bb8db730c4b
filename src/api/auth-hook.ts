import type { FastifyRequest } from 'fastify';
import type { Ctx, Deps } from '../services/context.js';
import type { Authenticator } from '../services/authenticator.js';
import { unauthorized } from '../errors.js';
import type { App } from './app-types.js';

/** Requires an API key on every route not marked `config: { public: true }`. */
export function installAuth(app: App, auth: Authenticator): void {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.public === true) return;
    if (request.routeOptions.url === undefined) return; // no route: the 404 handler answers
    request.principal = await auth.authenticate(request.headers.authorization);
  });
}

/** The request's context for the services; throws UNAUTHORIZED if the route skipped auth. */
export function ctxOf(deps: Deps, request: FastifyRequest): Ctx {
  if (!request.principal) throw unauthorized('Missing API key');
  return { deps, principal: request.principal };
}
