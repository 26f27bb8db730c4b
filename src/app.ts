import Fastify, { LogController, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App } from './api/app-types.js';
import { installAuth } from './api/hooks/auth-hook.js';
import { installBodyDeadline } from './api/hooks/body-deadline.js';
import { utf8Text } from './api/body-text.js';
import { answerClientError, routerErrorHandler } from './api/hooks/client-errors.js';
import { httpServerOptions } from './api/connection-limits.js';
import { installCors } from './api/hooks/cors.js';
import { installErrorHandlers } from './api/hooks/error-handler.js';
import { hasNulEscape, installNulGuard, nulError } from './api/hooks/nul-guard.js';
import { installOpenApi } from './api/openapi.js';
import { recordRoutes } from './api/route-table.js';
import { registerRoutes } from './api/routes/index.js';
import { installSecurityHeaders, securityHeaders } from './api/hooks/security-headers.js';
import { installQueryUtf8Guard, loneSurrogateError } from './api/hooks/unicode-guard.js';
import { compileSerializer } from './api/serializers.js';
import { compileValidator } from './api/validators.js';
import { AppError } from './errors.js';
import { OAuthOnDemand } from './auth/oauth/oauth-on-demand.js';
import { Authenticator } from './services/authenticator.js';
import { SessionAuthenticator } from './services/session-authenticator.js';
import type { Deps } from './services/context.js';

export interface AppOptions {
  logger?: FastifyServerOptions['logger'];
}

/**
 * Builds the HTTP app over the given stores; never listens (tests call `inject()` or
 * `listen()` themselves). JSON routes take application/json only (415 otherwise), and a
 * body must be one JSON object in valid UTF-8 (400 otherwise).
 */
export async function buildApp(deps: Deps, options: AppOptions = {}): Promise<App> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: deps.config.jsonBodyLimit,
    // Per-request log lines would dominate the ingest path; errors are logged by the handler.
    logController: new LogController({ disableRequestLogging: true }),
    requestIdHeader: false,
    // On close, idle keep-alive connections are dropped and in-flight requests finish.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    clientErrorHandler: answerClientError,
    frameworkErrors: routerErrorHandler(securityHeaders(deps.config.publicUrl, deps.config.blobUrl)),
    // The header deadline and keep-alive timeout (Fastify's own default keeps idle connections 72 s).
    http: httpServerOptions(deps.config),
    keepAliveTimeout: deps.config.keepAliveTimeoutMs,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    ajv: { customOptions: { coerceTypes: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(compileValidator);
  app.setSerializerCompiler(compileSerializer);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    try {
      const text = utf8Text(body as Buffer, 'INVALID_JSON');
      if (text.trim() === '') return done(new AppError('INVALID_JSON', 'body is empty; a JSON object is required'));
      if (hasNulEscape(text)) return done(nulError('text in the body'));
      const value: unknown = JSON.parse(text);
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        return done(new AppError('INVALID_JSON', 'body must be a JSON object'));
      }
      const lone = loneSurrogateError(text, value);
      if (lone) return done(lone);
      done(null, value);
    } catch (err) {
      done(
        err instanceof AppError
          ? err
          : new AppError('INVALID_JSON', `body is not valid JSON: ${(err as Error).message}`),
      );
    }
  });
  recordRoutes(app);
  installSecurityHeaders(app, deps.config.publicUrl, deps.config.blobUrl);
  installCors(app, deps.config.corsOrigins);
  installNulGuard(app);
  installQueryUtf8Guard(app);
  const backgroundWriteFailed = installErrorHandlers(app);
  installBodyDeadline(app, { timeoutMs: deps.config.bodyTimeoutMs, minRate: deps.config.bodyMinRate });
  // A connection that finishes its response just as close() starts would otherwise stay open
  // for the whole keep-alive timeout, holding shutdown: shorten it first.
  app.addHook('preClose', (done) => {
    app.server.keepAliveTimeout = 50;
    app.server.closeIdleConnections();
    done();
  });
  const keys = new Authenticator(deps.metadata, (err) => backgroundWriteFailed(err, 'could not record key use'));
  const sessions = new SessionAuthenticator(
    deps.metadata,
    keys,
    deps.config.sessionTtlMs,
    deps.config.maxSessionsPerKey,
    (err) => backgroundWriteFailed(err, 'could not record session use'),
  );
  const oauth = new OAuthOnDemand(deps, backgroundWriteFailed);
  app.addHook('onClose', (_instance, done) => {
    oauth.close();
    done();
  });
  installAuth(app, { keys, sessions, oauth, publicUrl: deps.config.publicUrl });
  await installOpenApi(app, deps.config.publicUrl);
  await registerRoutes(app, deps, sessions, oauth);
  return app;
}
