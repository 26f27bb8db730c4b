import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';

/** The origin (`scheme://host[:port]`, default port dropped) of a URL, or undefined when it is not one. */
function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * Throws CROSS_ORIGIN (403) unless the request comes from this server's own pages, as far
 * as the browser says: `Sec-Fetch-Site`, when sent, must be `same-origin` (or `none`, a typed
 * URL, for GET and HEAD), and `Origin`, when sent, must be the public URL's origin or the
 * origin of the Host the request was sent to. Clients that send neither header (curl,
 * scripts) pass. Used for cookie-authenticated requests and the session routes only.
 */
export function assertSameOrigin(request: FastifyRequest, publicUrl: string): void {
  const site = request.headers['sec-fetch-site'];
  const typed = site === 'none' && (request.method === 'GET' || request.method === 'HEAD');
  if (site !== undefined && site !== 'same-origin' && !typed) {
    throw new AppError('CROSS_ORIGIN', `a ${site} request cannot use the session cookie; only this server's pages can`);
  }
  const origin = request.headers.origin;
  if (origin === undefined) return;
  const own = [originOf(publicUrl), originOf(`${request.protocol}://${request.host}`)];
  if (!own.includes(originOf(origin) ?? 'none')) {
    throw new AppError(
      'CROSS_ORIGIN',
      `requests from ${origin} cannot use the session cookie; only this server's pages can`,
    );
  }
}
