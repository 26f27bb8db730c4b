import type { FastifyInstance } from 'fastify';

/**
 * The origins a browser fetches file bytes from besides this server: nothing for the local
 * blob store (its signed links are on the public URL), the bucket's origin for an `s3://`
 * blob URL (presigned links point at the bucket). `s3://bucket/prefix?endpoint=http://host:9000`
 * gives the endpoint's origin (path-style, the default with an endpoint) or `bucket.host`
 * (`forcePathStyle=false`); without an endpoint, AWS's virtual-hosted origin for the `region`
 * parameter, or any `*.amazonaws.com` host when the region is not in the URL. Malformed → none.
 */
export function blobOrigins(blobUrl: string | undefined): string[] {
  if (!blobUrl) return [];
  let u: URL;
  try {
    u = new URL(blobUrl);
  } catch {
    return [];
  }
  if (u.protocol !== 's3:' || u.hostname === '') return [];
  const bucket = decodeURIComponent(u.hostname);
  const endpoint = u.searchParams.get('endpoint');
  const region = u.searchParams.get('region');
  if (endpoint) {
    let e: URL;
    try {
      e = new URL(endpoint);
    } catch {
      return [];
    }
    if (e.protocol !== 'http:' && e.protocol !== 'https:') return [];
    const flag = u.searchParams.get('forcePathStyle');
    const pathStyle = flag === null || flag === 'true' || flag === '1';
    return [pathStyle ? e.origin : `${e.protocol}//${bucket}.${e.host}`];
  }
  if (region && /^[a-z0-9-]+$/.test(region) && /^[a-z0-9-]+$/.test(bucket)) {
    return [`https://${bucket}.s3.${region}.amazonaws.com`, `https://s3.${region}.amazonaws.com`];
  }
  return ['https://*.amazonaws.com'];
}

/** The content policy: scripts from this origin only, never inline; images and media also from the blob store. */
function contentPolicy(blobUrl: string | undefined): string {
  const blobs = blobOrigins(blobUrl)
    .map((o) => ` ${o}`)
    .join('');
  return (
    `default-src 'self'; script-src 'self'; img-src 'self' data: blob:${blobs}; media-src 'self' blob:${blobs}; ` +
    "style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
  );
}

/**
 * Headers every response carries, API and dashboard alike: no MIME sniffing, no framing, no
 * referrer, a same-origin content policy (scripts from this origin only, never inline; images
 * and audio/video also from the S3 bucket when `blobUrl` is one, for presigned links), and
 * `Cache-Control: no-store` (the dashboard's files replace it with their own caching).
 * Strict-Transport-Security is added when the public URL is https.
 */
export function securityHeaders(publicUrl: string, blobUrl?: string): Record<string, string> {
  const headers: Record<string, string> = {
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'content-security-policy': contentPolicy(blobUrl),
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'x-permitted-cross-domain-policies': 'none',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
    'cache-control': 'no-store',
  };
  if (publicUrl.startsWith('https://')) headers['strict-transport-security'] = 'max-age=31536000';
  return headers;
}

/** Sets the security headers on every response, errors and 404s included. */
export function installSecurityHeaders(app: FastifyInstance, publicUrl: string, blobUrl?: string): void {
  const headers = securityHeaders(publicUrl, blobUrl);
  app.addHook('onRequest', (_request, reply, done) => {
    void reply.headers(headers);
    done();
  });
}
