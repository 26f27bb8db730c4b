import { describe, expect, it } from 'vitest';
import { blobOrigins, securityHeaders } from '../../../src/api/hooks/security-headers.js';
import { call, useTestApp } from '../../helpers/test-app.js';

const t = useTestApp();

const directive = (csp: string, name: string): string =>
  csp
    .split(';')
    .map((d) => d.trim())
    .find((d) => d.startsWith(`${name} `)) ?? '';

describe('content policy for file bytes', () => {
  it('allows images and media from this origin and blob: with the local blob store', () => {
    const csp = securityHeaders('http://localhost:3000')['content-security-policy']!;
    expect(directive(csp, 'img-src')).toBe("img-src 'self' data: blob:");
    expect(directive(csp, 'media-src')).toBe("media-src 'self' blob:");
    expect(directive(csp, 'script-src')).toBe("script-src 'self'");
  });

  it("adds an S3 endpoint's origin (path-style) to img-src and media-src", () => {
    const csp = securityHeaders('http://x', 's3://runs/media?endpoint=http://127.0.0.1:9000/&region=eu-west-1')[
      'content-security-policy'
    ]!;
    expect(directive(csp, 'img-src')).toBe("img-src 'self' data: blob: http://127.0.0.1:9000");
    expect(directive(csp, 'media-src')).toBe("media-src 'self' blob: http://127.0.0.1:9000");
    expect(directive(csp, 'script-src')).toBe("script-src 'self'");
  });

  it('derives the bucket host for virtual-hosted endpoints and AWS', () => {
    expect(blobOrigins('s3://b?endpoint=https://minio.example.com&forcePathStyle=false')).toEqual([
      'https://b.minio.example.com',
    ]);
    expect(blobOrigins('s3://my-bucket/p?region=us-east-2')).toEqual([
      'https://my-bucket.s3.us-east-2.amazonaws.com',
      'https://s3.us-east-2.amazonaws.com',
    ]);
    expect(blobOrigins('s3://my-bucket/p')).toEqual(['https://*.amazonaws.com']);
  });

  it('adds nothing for no, malformed or non-http endpoints', () => {
    expect(blobOrigins(undefined)).toEqual([]);
    expect(blobOrigins('not a url')).toEqual([]);
    expect(blobOrigins('s3://b?endpoint=javascript:alert(1)')).toEqual([]);
    expect(blobOrigins("s3://b?endpoint=http://h'; script-src *")).toEqual([]);
  });
});

const EXPECTED_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

describe('security headers', () => {
  const cases: { name: string; method: 'GET' | 'POST'; url: string; key: 'good' | null; body?: unknown }[] = [
    { name: 'a public health check', method: 'GET', url: '/api/health', key: null },
    { name: 'an authenticated read', method: 'GET', url: '/api/runs/projects', key: 'good' },
    { name: "the organization's keys", method: 'GET', url: '/api/keys', key: 'good' },
    { name: 'a 400 for a bad percent-encoding in an API path', method: 'GET', url: '/api/runs/%ff', key: 'good' },
    { name: 'a 400 for a bad percent-encoding in a dashboard path', method: 'GET', url: '/o/%ff/x', key: null },
    { name: 'a 401 without a key', method: 'GET', url: '/api/runs/projects', key: null },
    { name: 'a 404 for an unknown route', method: 'GET', url: '/nowhere', key: null },
    { name: 'a 400 for a bad body', method: 'POST', url: '/api/runs/create', key: 'good', body: '{"x":' },
    { name: 'a 403 for a bad signed link', method: 'GET', url: '/files/download/1/2/x?expires=1&sig=x', key: null },
  ];
  it.each(cases)('are on $name', async ({ method, url, key, body }) => {
    const res = await call(t.app, method, url, key === null ? null : t.key, body);
    expect(res.headers).toMatchObject(EXPECTED_HEADERS);
    expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  });
});
