/**
 * Serving the built dashboard: hashed assets cached for a year, root files briefly, the
 * page for every client-side route, JSON 404s for the API's own paths, nothing outside the
 * build directory, and a clear answer when the dashboard has not been built.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../helpers/session-api.js';
import { tempDir } from '../helpers/temp-dir.js';
import { makeTestApp, type TestApp } from '../helpers/test-app.js';

const INDEX = '<!doctype html><html><head><script type="module" src="/assets/index-Bx7k2Q.js"></script></head></html>';
const SCRIPT = 'console.log("stepwise");\n';
const SECRET = 'secret outside the build';

/** A fake Vite build in a temp dir, with a secret file beside it. */
function fakeBuild(): { root: string; dist: string } {
  const root = tempDir('stepwise-ui-');
  const dist = path.join(root, 'dist');
  fs.mkdirSync(path.join(dist, 'assets', 'nested'), { recursive: true });
  fs.writeFileSync(path.join(dist, 'index.html'), INDEX);
  fs.writeFileSync(path.join(dist, 'assets', 'index-Bx7k2Q.js'), SCRIPT);
  fs.writeFileSync(path.join(dist, 'assets', 'index-Ck3p9Z.css'), 'body{margin:0}');
  fs.writeFileSync(path.join(dist, 'assets', 'logo-D9f1aa.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  fs.writeFileSync(path.join(dist, 'assets', '.env'), SECRET);
  fs.writeFileSync(path.join(dist, 'favicon.ico'), Buffer.from([0, 0, 1, 0]));
  fs.writeFileSync(path.join(root, 'secret.txt'), SECRET);
  return { root, dist };
}

let t: TestApp;
let build: { root: string; dist: string };
beforeAll(async () => {
  build = fakeBuild();
  t = await makeTestApp({ STEPWISE_UI_DIR: build.dist });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(build.root, { recursive: true, force: true });
});

const IMMUTABLE = 'public, max-age=31536000, immutable';

describe('assets', () => {
  const assets = [
    { url: '/assets/index-Bx7k2Q.js', type: 'text/javascript; charset=utf-8' },
    { url: '/assets/index-Ck3p9Z.css', type: 'text/css; charset=utf-8' },
    { url: '/assets/logo-D9f1aa.svg', type: 'image/svg+xml' },
  ];
  it.each(assets)('$url is served as $type, cached for a year as immutable', async ({ url, type }) => {
    const res = await send(t.app, { url });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(type);
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(res.text).toBe(fs.readFileSync(path.join(build.dist, url)).toString());
    expect(Number(res.headers['content-length'])).toBe(res.text.length);
  });

  it('carry the security headers, with a CSP that allows scripts from this origin only', async () => {
    const res = await send(t.app, { url: '/assets/index-Bx7k2Q.js' });
    expect(res.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    const directives = csp.split(';').map((d) => d.trim());
    expect(directives.find((d) => d.startsWith('script-src'))).toBe("script-src 'self'");
  });

  it('answer HEAD with the headers and no body', async () => {
    const res = await send(t.app, { method: 'HEAD', url: '/assets/index-Bx7k2Q.js' });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(res.text).toBe('');
  });

  it.each([
    '/assets/index-Nope00.js',
    '/assets/nested',
    '/assets/',
    '/assets',
    '/assets/.env',
    '/assets/index-Bx7k2Q.js/x',
  ])('%s is a JSON 404', async (url) => {
    const res = await send(t.app, { url });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'NOT_FOUND', error: expect.any(String) });
    expect(res.text).not.toContain(SECRET);
  });
});

describe('path traversal', () => {
  const attempts = [
    '/assets/../../secret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/assets/%2e%2e/%2e%2e/secret.txt',
    '/assets/%2E%2E%2F%2E%2E%2Fsecret.txt',
    '/assets/..\\..\\secret.txt',
    '/assets/nested/../../../secret.txt',
    '/assets/..',
    '/..%2fsecret.txt',
    '/%2e%2e/secret.txt',
    '/%2e%2e%2fsecret.txt',
    '/../secret.txt',
    '/..',
    '/assets/%00',
  ];
  const port = () => (t.app.server.address() as AddressInfo).port;
  beforeAll(() => t.app.listen({ port: 0, host: '127.0.0.1' }));

  it.each(attempts)('%s never answers a file outside the build, in-process or over HTTP as sent', async (url) => {
    for (const res of [await send(t.app, { url }), await rawGet(port(), url)]) {
      expect(res.text).not.toContain(SECRET);
      expect([200, 400, 404]).toContain(res.status);
      if (res.status === 200) expect(res.text).toBe(INDEX);
    }
    // As sent (not normalised), a path under /assets/ is never the page either.
    if (url.startsWith('/assets/')) expect([400, 404]).toContain((await rawGet(port(), url)).status);
  });
});

/** A GET whose path goes on the wire exactly as given (fetch and inject normalise `..`). */
function rawGet(port: number, rawPath: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: rawPath }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      })
      .on('error', reject);
  });
}

describe('the page', () => {
  const routes = [
    '/',
    '/sign-in',
    '/api-keys',
    '/o/acme/projects/image-classification/Xk9',
    '/o/acme/projects/image-classification/compare?runs=1,2',
    '/o/acme/projects/my.project/Xk9',
    '/index.html',
    '/apis',
    '/filesystem',
  ];
  it.each(routes)('%s answers index.html, revalidated on every load', async (url) => {
    const res = await send(t.app, { url });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.text).toBe(INDEX);
  });

  it('needs no credentials and ignores a dead session cookie', async () => {
    const res = await send(t.app, { url: '/sign-in', token: 'A'.repeat(43) });
    expect(res.status).toBe(200);
  });

  it('answers HEAD without a body', async () => {
    const res = await send(t.app, { method: 'HEAD', url: '/sign-in' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toBe('');
  });

  it('a file at the build root is served itself, cached briefly', async () => {
    const res = await send(t.app, { url: '/favicon.ico' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/x-icon');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
  });
});

describe('paths of the server itself', () => {
  const paths: { method: 'GET' | 'HEAD' | 'POST'; url: string }[] = [
    { method: 'GET', url: '/api/nope' },
    { method: 'GET', url: '/api' },
    { method: 'GET', url: '/api/runs/unknown/deeper' },
    { method: 'GET', url: '/ingest/metrics' },
    { method: 'GET', url: '/files' },
    { method: 'GET', url: '/files/elsewhere' },
    { method: 'POST', url: '/sign-in' },
  ];
  it.each(paths)('$method $url keeps its JSON 404', async ({ method, url }) => {
    const res = await send(t.app, { method, url });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: `no route for ${method} ${url}`, code: 'NOT_FOUND' });
  });

  it('HEAD /api/nope is a 404 too', async () => {
    expect((await send(t.app, { method: 'HEAD', url: '/api/nope' })).status).toBe(404);
  });
});

describe('without a build', () => {
  it('answers a JSON 404 that says to build the dashboard, and the API still works', async () => {
    const bare = await makeTestApp({ STEPWISE_UI_DIR: path.join(build.root, 'missing') });
    try {
      for (const url of ['/', '/sign-in']) {
        const res = await send(bare.app, { url });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: expect.stringContaining('npm run build'), code: 'NOT_FOUND' });
      }
      expect((await send(bare.app, { url: '/assets/index-Bx7k2Q.js' })).status).toBe(404);
      expect((await send(bare.app, { url: '/api/health' })).status).toBe(200);
    } finally {
      await bare.close();
    }
  });
});
