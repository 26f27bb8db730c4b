import type { OAuthServer } from '../../auth/oauth/oauth-server.js';
import type { App } from '../app-types.js';

const METADATA = '/.well-known/oauth-authorization-server/oauth';

/**
 * The authorization server's own endpoints, everything under /oauth (docs/api.md §18), and
 * its RFC 8414 metadata at the path-inserted well-known URL. The provider reads the raw
 * request itself: these routes hand it over in their first onRequest hook (before any body
 * is read), so neither Fastify's parsers nor the body deadline touch it.
 */
export async function registerOAuthProviderRoutes(app: App, oauth: OAuthServer): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('onRequest', (request, reply, done) => {
      const url = request.raw.url ?? '/';
      const query = url.includes('?') ? url.slice(url.indexOf('?')) : '';
      const path = url.startsWith(METADATA) ? `/.well-known/openid-configuration${query}` : url.slice('/oauth'.length);
      // The headers hooks set so far (security headers, CORS) go out with the provider's answer.
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value as string | string[] | number);
      }
      reply.hijack();
      oauth.handle(request.raw, reply.raw, path === '' ? '/' : path);
      done();
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
