import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError, type ErrorCode, HTTP_STATUS } from '../../errors.js';
import { isStorageFull, storageFullError } from '../../store/storage-full.js';

/** Fastify's own error codes that mean the client sent something wrong. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BAD_REQUEST',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_EMPTY_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_BAD_URL: 'BAD_REQUEST',
  FST_ERR_ASYNC_CONSTRAINT: 'BAD_REQUEST',
};

function describeValidation(err: FastifyError): string {
  const first = err.validation?.[0];
  if (!first) return err.message;
  const context = err.validationContext ?? 'request';
  const params = first.params as Record<string, unknown>;
  const missing = typeof params.missingProperty === 'string' ? params.missingProperty : undefined;
  const where = first.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const field = missing ?? (where || context);
  if (missing) return `${context}: ${field} is required`;
  const allowed = Array.isArray(params.allowedValues) ? `: ${params.allowedValues.join(', ')}` : '';
  return `${context}: ${field} ${first.message ?? 'is invalid'}${allowed}`;
}

/**
 * Maps any error to a status and `{error, code}`: a full disk or database is a 507
 * INSUFFICIENT_STORAGE, an unknown error a 500 with the request id.
 */
export function toErrorResponse(
  thrown: unknown,
  requestId: string,
): { status: number; body: { error: string; code: string } } {
  const err = isStorageFull(thrown) ? storageFullError() : thrown;
  if (err instanceof AppError) return { status: HTTP_STATUS[err.code], body: { error: err.message, code: err.code } };
  const fe = err as Partial<FastifyError>;
  if (fe.validation) {
    return { status: 400, body: { error: describeValidation(fe as FastifyError), code: 'VALIDATION_FAILED' } };
  }
  const mapped = fe.code ? FASTIFY_CODES[fe.code] : undefined;
  if (mapped) return { status: HTTP_STATUS[mapped], body: { error: fe.message ?? mapped, code: mapped } };
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return { status: fe.statusCode, body: { error: fe.message ?? 'bad request', code: 'BAD_REQUEST' } };
  }
  return { status: 500, body: { error: `internal error (request ${requestId})`, code: 'INTERNAL' } };
}

/** Methods that write: one of them answered 2xx after a full disk means there is room again. */
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Logs a write done in the background (a key's or session's last use) that failed. */
export type BackgroundWriteFailed = (err: unknown, what: string) => void;

/**
 * Installs the one error handler and the 404 handler of the app. A 503 (overloaded) is
 * expected behaviour: it is logged as a warning with its code and reason, without a stack.
 * A 507 (storage full) is logged once per episode as a warning, and the first write that
 * succeeds after it ends the episode (an info line); any other 5xx is logged as an error
 * with its cause. Returns the logger of background writes, which joins the same episode.
 */
export function installErrorHandlers(app: FastifyInstance): BackgroundWriteFailed {
  let storageFull = false;
  const storageFullOnce = (log: FastifyInstance['log']) => {
    if (!storageFull)
      log.warn({ code: 'INSUFFICIENT_STORAGE' }, 'storage full: writes are answered 507 until there is room');
    storageFull = true;
  };
  app.addHook('onResponse', (request, reply, done) => {
    if (storageFull && WRITES.has(request.method) && reply.statusCode < 300) {
      storageFull = false;
      request.log.info('storage has room again: writes are stored');
    }
    done();
  });
  app.setErrorHandler((err, request, reply) => {
    const { status, body } = toErrorResponse(err, request.id);
    if (status === 503) request.log.warn({ code: body.code, reason: body.error }, 'request refused: overloaded');
    else if (status === 507) storageFullOnce(request.log);
    else if (status >= 500) request.log.error({ err }, 'request failed');
    if (status === 503) void reply.header('Retry-After', '1');
    return reply.status(status).send(body);
  });
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({ error: `no route for ${request.method} ${request.url.split('?')[0]}`, code: 'NOT_FOUND' }),
  );
  return (err, what) => (isStorageFull(err) ? storageFullOnce(app.log) : app.log.warn({ err }, what));
}
