import type { FastifyInstance } from 'fastify';

/**
 * Headers every response carries, API and dashboard alike: no MIME sniffing, no framing, no
 * referrer, a same-origin content policy (scripts from this origin only, never inline).
 * Strict-Transport-Security is added when the public URL is https.
 */
export function securityHeaders(publicUrl: string): Record<string, string> {
  const headers: Record<string, string> = {
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'content-security-policy':
      "default-src 'self'; script-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; " +
      "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'x-permitted-cross-domain-policies': 'none',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  };
  if (publicUrl.startsWith('https://')) headers['strict-transport-security'] = 'max-age=31536000';
  return headers;
}

/** Sets the security headers on every response, errors and 404s included. */
export function installSecurityHeaders(app: FastifyInstance, publicUrl: string): void {
  const headers = securityHeaders(publicUrl);
  app.addHook('onRequest', (_request, reply, done) => {
    void reply.headers(headers);
    done();
  });
}
