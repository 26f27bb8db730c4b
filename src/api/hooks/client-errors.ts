import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { securityHeaders } from './security-headers.js';

/** The answer to a request Node's HTTP parser refused, by parser error code. */
function answerOf(code: string | undefined): { status: number; text: string; error: string; appCode: string } {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return {
      status: 431,
      text: 'Request Header Fields Too Large',
      error: 'the request line or headers are larger than the server accepts (16 kB)',
      appCode: 'HEADERS_TOO_LARGE',
    };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return {
      status: 408,
      text: 'Request Timeout',
      error: 'the request line and headers did not arrive in time',
      appCode: 'REQUEST_TIMEOUT',
    };
  }
  return {
    status: 400,
    text: 'Bad Request',
    error: 'the request is not valid HTTP (bad request line, header name or header value)',
    appCode: 'BAD_REQUEST',
  };
}

/** How long a refused connection may stay open after its answer before it is destroyed. */
const LINGER_MS = 2000;

/**
 * Fastify's clientErrorHandler: answers requests that never reach the router (malformed
 * HTTP, CR/LF or NUL in headers, oversized headers, headers later than the header deadline)
 * with the usual `{error, code}` body and security headers, then closes the connection
 * (destroyed 2 s later at most). Nothing is logged: the raw packet of such a request may
 * hold an Authorization header.
 */
export function answerClientError(this: unknown, err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, text, error, appCode } = answerOf(err.code);
  const body = JSON.stringify({ error, code: appCode });
  const headers = Object.entries({ ...securityHeaders(''), 'content-type': 'application/json; charset=utf-8' })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nconnection: close\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${headers}\r\n${body}`,
  );
  // A client that never closes its side would keep the socket (and its descriptor) for good.
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/** What was wrong, for the errors Fastify's router raises before any hook runs (never the path itself). */
const ROUTER_ERRORS: Record<string, string> = {
  FST_ERR_BAD_URL: 'the path is not valid percent-encoded UTF-8',
  FST_ERR_MAX_PARAM_LENGTH: 'a segment of the path is longer than 500 characters',
};

/**
 * Fastify's frameworkErrors: answers a path the router cannot decode (`/api/runs/%ff`) or
 * an over-long path segment with a 400 `{error, code}` carrying `headers` (the security
 * headers: no hook runs for such a request), without echoing the path.
 */
export function routerErrorHandler(
  headers: Record<string, string>,
): (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => void {
  return (err, _request, reply) => {
    const error = ROUTER_ERRORS[err.code] ?? 'the request cannot be routed';
    void reply.headers(headers).status(400).send({ error, code: 'BAD_REQUEST' });
  };
}
