/**
 * Tenancy and authentication for every route the router has, derived from the router
 * itself (routeTable), so a new route is covered the day it is added: another
 * organization's key gets 404 or an answer without the victim's data and changes nothing;
 * so does another user of the same organization on the key routes (its keys are its own);
 * no key, a malformed, revoked or expired key or an unknown session gets 401; the owner's
 * session cookie works like the key, but not from another site; public routes are a fixed
 * list and the signed ones refuse requests without their signature.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { routeTable, type RouteEntry } from '../../src/api/route-table.js';
import { createApiKey } from '../../src/services/api-keys.js';
import { makeTestApp } from '../helpers/test-app.js';
import { requestFor, routeName, successStatus, type Target } from '../helpers/route-requests.js';
import { signIn } from '../helpers/session-api.js';
import { createVictim, giveOwnerPassword, MARKERS, victimSnapshot } from '../helpers/victim.js';

const t = await makeTestApp();
const routes = routeTable(t.app);
const privateRoutes = routes.filter((r) => !r.public);

/** Public routes and what guards them instead of a key. */
const PUBLIC: Record<string, 'open' | 'signed' | 'session' | 'invitation'> = {
  'GET /api/health': 'open',
  'GET /api/openapi.json': 'open',
  'PUT /files/upload/*': 'signed',
  'GET /files/download/*': 'signed',
  'POST /api/session': 'session',
  'DELETE /api/session': 'session',
  // The link's token is the credential (test/api/members.test.ts).
  'POST /api/invitations/accept': 'invitation',
  // Single sign-on: the provider's checked answer is the credential (test/api/oidc.test.ts).
  'GET /api/auth/providers': 'open',
  'GET /api/auth/oidc/start': 'session',
  'GET /api/auth/oidc/callback': 'session',
  // The OAuth 2.1 authorization server (test/api/oauth-flow.test.ts): its own checks.
  'GET /.well-known/oauth-authorization-server/oauth': 'open',
  'GET /oauth/*': 'open',
  'POST /oauth/*': 'open',
  'DELETE /oauth/*': 'open',
  'PUT /oauth/*': 'open',
  'OPTIONS /oauth/*': 'open',
  // The built dashboard (static files and its page): no data.
  'GET /assets/*': 'open',
  'GET /*': 'open',
  // The protected-resource metadata of /mcp (RFC 9728): no data.
  'GET /.well-known/oauth-protected-resource': 'open',
  'GET /.well-known/oauth-protected-resource/mcp': 'open',
};

let target: Target;
let before: string;
let revokedKey: string;
let expiredKey: string;
/** A key of another user of the owner's organization, not its admin. */
let colleagueKey: string;
/** A session of the owner's key, sent as the dashboard's cookie. */
let ownerSession: string;
beforeAll(async () => {
  ownerSession = await signIn(t.app, t.key);
  // The owner's keys are part of the snapshot (GET /api/keys): all made before it.
  const keyOf = (expiresAt: number | null) =>
    createApiKey(t.stores.metadata, { orgSlug: 'acme', userName: 'ann', name: 'k', expiresAt });
  const revoked = await keyOf(null);
  await t.stores.metadata.revokeApiKey(revoked.id, Date.now());
  revokedKey = revoked.key;
  expiredKey = (await keyOf(Date.now() - 1000)).key;
  colleagueKey = (
    await createApiKey(t.stores.metadata, { orgSlug: 'acme', userName: 'zed', name: 'k', expiresAt: null })
  ).key;
  target = await createVictim(t.app, t.key);
  await giveOwnerPassword(t.stores.metadata, t.key, target);
  before = await victimSnapshot(t.app, t.key, target);
});
afterAll(() => t.close());

async function send(req: InjectOptions, authorization?: string, cookie?: string) {
  const headers = { ...(req.headers as Record<string, string>) };
  if (authorization !== undefined) headers.authorization = authorization;
  // Added to the request's own cookies (a pending authorization's, docs/api.md §18).
  if (cookie !== undefined) headers.cookie = headers.cookie === undefined ? cookie : `${headers.cookie}; ${cookie}`;
  const res = await t.app.inject({ ...req, headers });
  return { status: res.statusCode, text: res.body, json: () => res.json<Record<string, unknown>>() };
}

describe('the route table', () => {
  it('has every route, and no public route beyond the known ones', () => {
    expect(routes.length).toBeGreaterThanOrEqual(30);
    expect(
      routes
        .filter((r) => r.public)
        .map(routeName)
        .sort(),
    ).toEqual(Object.keys(PUBLIC).sort());
  });
});

/**
 * Routes about the requester's own account: another user's request acts on its own account,
 * and a 400 (it has no password to change) is as harmless as a 404.
 */
const ownAccount = (route: RouteEntry): boolean => route.url.startsWith('/api/account');

describe('another organization, on every route', () => {
  it.each(privateRoutes.map((r) => ({ route: r, name: routeName(r) })))(
    '$name gets a 404 or an answer without the victim’s data',
    async ({ route }) => {
      const res = await send(requestFor(route, target), `Bearer ${t.otherKey}`);
      const harmless = [successStatus(route), 404, ...(ownAccount(route) ? [400] : [])];
      expect(harmless, `${res.status} ${res.text}`).toContain(res.status);
      for (const marker of MARKERS) expect(res.text).not.toContain(marker);
      if (res.status === 404) expect(res.json()).toMatchObject({ code: 'NOT_FOUND', error: expect.any(String) });
    },
  );

  it('changed nothing of the victim’s data through any of those calls', async () => {
    expect(await victimSnapshot(t.app, t.key, target)).toEqual(before);
  });
});

describe('another user of the organization, on the key routes', () => {
  const keyRoutes = privateRoutes.filter((r) => r.url.startsWith('/api/keys'));

  it('are the three key routes', () => {
    expect(keyRoutes.map(routeName).sort()).toEqual([
      'GET /api/keys',
      'POST /api/keys',
      'POST /api/keys/:keyId/revoke',
    ]);
  });

  it.each(keyRoutes.map((r) => ({ route: r, name: routeName(r) })))(
    '$name gets a 404 or an answer without the owner’s keys',
    async ({ route }) => {
      const res = await send(requestFor(route, target), `Bearer ${colleagueKey}`);
      expect([200, 404], `${res.status} ${res.text}`).toContain(res.status);
      expect(res.text).not.toContain('vq7-key');
      if (route.url.endsWith('/revoke'))
        expect(res.json()).toEqual({
          error: `API key ${target.apiKeyId} not found`,
          code: 'NOT_FOUND',
        });
    },
  );

  it('POST /api/keys/0<id>/revoke, with leading zeros, is a 400 for the owner’s key id too', async () => {
    for (const authorization of [`Bearer ${colleagueKey}`, `Bearer ${t.key}`]) {
      const res = await send({ method: 'POST', url: `/api/keys/0${target.apiKeyId}/revoke` }, authorization);
      expect(res.status, res.text).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', error: expect.stringContaining('keyId') });
    }
  });

  it('changed nothing of the victim’s data through any of those calls', async () => {
    expect(await victimSnapshot(t.app, t.key, target)).toEqual(before);
  });
});

describe('the owner, on every route', () => {
  it.each(privateRoutes.map((r) => ({ route: r, name: routeName(r) })))(
    '$name answers 2xx to the same request (so the probes above were valid)',
    async ({ route }) => {
      const res = await send(requestFor(route, target), `Bearer ${t.key}`);
      expect(res.status, res.text).toBe(successStatus(route));
    },
  );

  it.each(privateRoutes.map((r) => ({ route: r, name: routeName(r) })))(
    '$name answers 2xx to the same request with the owner’s session cookie instead of a key',
    async ({ route }) => {
      const res = await send(requestFor(route, target), undefined, `stepwise_session=${ownerSession}`);
      expect(res.status, res.text).toBe(successStatus(route));
    },
  );
});

const BAD_CREDENTIALS: { name: string; header: () => string | undefined; cookie?: string; error: string }[] = [
  { name: 'no key', header: () => undefined, error: 'Missing API key' },
  {
    name: 'an unknown session',
    header: () => undefined,
    cookie: `stepwise_session=${'A'.repeat(43)}`,
    error: 'Invalid session',
  },
  { name: 'a malformed key', header: () => 'Bearer not a key', error: 'Invalid API key' },
  { name: 'an unknown key', header: () => 'Bearer sw_unknownunknownunknownunknown', error: 'Invalid API key' },
  { name: 'a revoked key', header: () => `Bearer ${revokedKey}`, error: 'API key has been revoked' },
  { name: 'an expired key', header: () => `Bearer ${expiredKey}`, error: 'API key has expired' },
];

describe('bad credentials, on every route', () => {
  const cases = privateRoutes.flatMap((r) => BAD_CREDENTIALS.map((c) => ({ ...c, route: r, label: routeName(r) })));
  it.each(cases)('$label with $name is a 401', async ({ route, header, cookie, error }) => {
    const res = await send(requestFor(route, target), header(), cookie);
    expect(res.status, res.text).toBe(401);
    expect(res.json()).toEqual({ error, code: 'UNAUTHORIZED' });
  });
});

describe('public routes', () => {
  const signed = routes.filter((r) => PUBLIC[routeName(r)] === 'signed');
  it.each(signed.map((r) => ({ route: r, name: routeName(r) })))(
    '$name refuses a request without its signature, or with the signature of another file',
    async ({ route }) => {
      const good = requestFor(route, target);
      const path = String(good.url).split('?')[0]!;
      for (const url of [
        path,
        `${path}?expires=9999999999&sig=${'A'.repeat(43)}`,
        `${path}x?${String(good.url).split('?')[1]}`,
      ]) {
        const res = await send({ ...good, url });
        expect(res.status, `${url}: ${res.text}`).toBe(403);
        expect(res.json()).toMatchObject({ code: 'FORBIDDEN' });
      }
    },
  );

  it('a session cookie from another site is refused on every private route', async () => {
    for (const route of privateRoutes) {
      const req = requestFor(route, target);
      const res = await send(
        { ...req, headers: { ...(req.headers as Record<string, string>), 'sec-fetch-site': 'cross-site' } },
        undefined,
        `stepwise_session=${ownerSession}`,
      );
      expect(res.status, `${routeName(route)}: ${res.text}`).toBe(403);
      expect(res.json()).toMatchObject({ code: 'CROSS_ORIGIN' });
    }
  });

  it('POST /api/session opens no session for a revoked, expired or unknown key', async () => {
    for (const apiKey of [revokedKey, expiredKey, 'sw_unknownunknownunknownunknown']) {
      const res = await send({
        method: 'POST',
        url: '/api/session',
        payload: JSON.stringify({ apiKey }),
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(401);
    }
  });

  it('GET /api/health and /api/openapi.json answer without a key and reveal no data', async () => {
    for (const url of ['/api/health', '/api/openapi.json']) {
      const res = await send({ method: 'GET', url });
      expect(res.status).toBe(200);
      for (const marker of MARKERS) expect(res.text).not.toContain(marker);
    }
  });
});
