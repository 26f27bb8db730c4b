import swagger from '@fastify/swagger';
import type { App } from './app-types.js';
import { SESSION_COOKIE } from './session-cookie.js';

/**
 * Collects every route's TypeBox schemas into an OpenAPI 3 document served (without a key)
 * at GET /api/openapi.json. Must be registered before the routes.
 */
export async function installOpenApi(app: App, publicUrl: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Stepwise',
        version: '0.1.0',
        description:
          'Self-hosted experiment tracking: runs, metrics, console logs, files. Errors are {error, code}. ' +
          'Every route except /api/health, /api/openapi.json, /api/session and signed file links needs ' +
          '`Authorization: Bearer <key>`, or the `stepwise_session` cookie that POST /api/session sets ' +
          "(accepted from this server's own pages only).",
      },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer' },
          session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
        },
      },
      security: [{ apiKey: [] }, { session: [] }],
    },
  });
  app.get('/api/openapi.json', { config: { public: true }, schema: { hide: true } }, () => app.swagger());
}
