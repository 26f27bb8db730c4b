import type { Socket } from 'node:net';
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
    return { status: 408, text: 'Request Timeout', error: 'the request was not received in time', appCode: 'TIMEOUT' };
  }
  return {
    status: 400,
    text: 'Bad Request',
    error: 'the request is not valid HTTP (bad request line, header name or header value)',
    appCode: 'BAD_REQUEST',
  };
}

/**
 * Fastify's clientErrorHandler: answers requests that never reach the router (malformed
 * HTTP, CR/LF or NUL in headers, oversized headers) with the usual `{error, code}` body and
 * security headers, then closes the connection. Nothing is logged: the raw packet of such
 * a request may hold an Authorization header.
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
}
