import { describe, expect, it } from 'vitest';
import { blobOrigins, securityHeaders } from '../../src/api/security-headers.js';

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
