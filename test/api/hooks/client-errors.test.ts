/**
 * Requests the router cannot take (issue 25, finding 6): a path whose percent-encoding is
 * not UTF-8, or with a segment over 500 characters, is answered by our handler, not the
 * framework's: a 400 {error, code} with the security headers, which never echoes the path.
 */
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../../helpers/test-app.js';

const t = useTestApp();

const cases: { name: string; method: 'GET' | 'POST'; url: string; error: string }[] = [
  { name: 'an API path', method: 'GET', url: '/api/runs/%ff', error: 'the path is not valid percent-encoded UTF-8' },
  { name: 'a dashboard path', method: 'GET', url: '/o/%ff/x', error: 'the path is not valid percent-encoded UTF-8' },
  {
    name: 'a path with a truncated escape',
    method: 'GET',
    url: '/api/runs/list%E0%A4%A?projectName=p',
    error: 'the path is not valid percent-encoded UTF-8',
  },
  {
    name: 'a path parameter of 600 characters',
    method: 'POST',
    url: `/api/keys/${'1'.repeat(600)}/revoke`,
    error: 'a segment of the path is longer than 500 characters',
  },
];

describe('paths the router cannot take', () => {
  it.each(cases)('$name is a 400 {error, code} with the security headers and without the path', async (c) => {
    const res = await call(t.app, c.method, c.url, t.key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: c.error, code: 'BAD_REQUEST' });
    expect(res.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'cache-control': 'no-store',
      'content-type': expect.stringMatching(/^application\/json/),
    });
    expect(JSON.stringify(res.body)).not.toMatch(/%ff|%E0|1111/i);
  });
});
