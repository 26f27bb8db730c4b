import type { OAuthOnDemand } from '../../auth/oauth/oauth-on-demand.js';
import type { RegistrationLimiter } from '../../auth/oauth/registration-limiter.js';
import type { App } from '../app-types.js';

const METADATA = '/.well-known/oauth-authorization-server/oauth';

/**
 * The authorization server's own endpoints, everything under /oauth (docs/api.md §18), and
 * its RFC 8414 metadata at the path-inserted well-known URL. The provider reads the raw
 * request itself: these routes hand it over in their first onRequest hook (before any body
 * is read), so neither Fastify's parsers nor the body deadline touch it. Client registration
 * is limited per client address: past the limit, 429 with the RFC 7591 error shape and
 * Retry-After, before the provider is loaded.
 */
export async function registerOAuthProviderRoutes(
  app: App,
  oauth: OAuthOnDemand,
  registrations: RegistrationLimiter,
): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request, reply) => {
      const url = request.raw.url ?? '/';
      const query = url.includes('?') ? url.slice(url.indexOf('?')) : '';
      const path = url.startsWith(METADATA) ? `/.well-known/openid-configuration${query}` : url.slice('/oauth'.length);
      const wait = isRegistration(request.method, path) ? await registrations.take(request.ip) : undefined;
      if (wait !== undefined) {
        return reply
          .code(429)
          .header('retry-after', String(wait))
          .send({
            error: 'too_many_requests',
            error_description: `too many client registrations from this address; try again in ${wait} s`,
          });
      }
      // The headers hooks set so far (security headers, CORS) go out with the provider's answer.
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value as string | string[] | number);
      }
      reply.hijack();
      oauth.get().then(
        (server) => server.handle(request.raw, reply.raw, path === '' ? '/' : path),
        (err: unknown) => {
          request.log.error({ err }, 'could not start the OAuth server');
          reply.raw.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
          reply.raw.end(JSON.stringify({ error: `internal error (request ${request.id})`, code: 'INTERNAL' }));
        },
      );
      return reply;
    });
    const options = { config: { public: true }, schema: { hide: true } };
    const unreachable = () => undefined;
    scope.get(METADATA, options, unreachable);
    scope.route({
      method: ['GET', 'POST', 'DELETE', 'PUT', 'OPTIONS'],
      url: '/oauth/*',
      ...options,
      handler: unreachable,
    });
  });
}

/** True for POST /oauth/reg (RFC 7591 dynamic client registration), whatever its query. */
function isRegistration(method: string, path: string): boolean {
  return method === 'POST' && path.split('?')[0] === '/reg';
}
