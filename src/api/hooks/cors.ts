import type { FastifyInstance } from 'fastify';

const ALLOWED_METHODS = 'GET, POST, PUT, OPTIONS';
const ALLOWED_HEADERS = 'authorization, content-type, x-run-id, x-project-name';

/**
 * CORS for the configured browser origins (`*` = any). With none configured (the
 * default) no CORS header is ever sent, so browsers keep other sites out. A preflight
 * from an allowed origin is answered 204 before authentication; any other preflight
 * falls through to the router (404, no CORS headers).
 */
export function installCors(app: FastifyInstance, origins: readonly string[]): void {
  if (origins.length === 0) return;
  const any = origins.includes('*');
  const allowed = new Set(origins);
  app.addHook('onRequest', (request, reply, done) => {
    const origin = request.headers.origin;
    if (origin === undefined || !(any || allowed.has(origin))) return done();
    void reply.header('access-control-allow-origin', any ? '*' : origin);
    if (!any) void reply.header('vary', 'Origin');
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) {
      void reply
        .header('access-control-allow-methods', ALLOWED_METHODS)
        .header('access-control-allow-headers', ALLOWED_HEADERS)
        .header('access-control-max-age', '600')
        .status(204)
        .send();
      return;
    }
    done();
  });
}
