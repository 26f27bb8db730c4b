/**
 * Roles on every route the router has, derived from the router itself (routeTable): every
 * route that needs a key declares the narrowest role that may call it, and each route ×
 * each role is allowed (the route's success answer) or refused with 403 FORBIDDEN_ROLE,
 * by keys of users holding each role and by an owner's key capped at each role. A route
 * added without a role fails the first test here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTable, type RouteEntry } from '../../src/api/route-table.js';
import { atLeast, ROLES, type Role } from '../../src/domain/roles.js';
import { createApiKey } from '../../src/services/api-keys.js';
import { requestFor, routeName, successStatus, type Target } from '../helpers/route-requests.js';
import { makeTestApp } from '../helpers/test-app.js';
import { createVictim, giveOwnerPassword } from '../helpers/victim.js';

const t = await makeTestApp();
const privateRoutes = routeTable(t.app).filter((r) => !r.public);

/**
 * Answers that depend on whose the target is, not only on the role: the target key belongs
 * to the organization's owner, which only that user and owners may revoke (others get a 404).
 */
const BY_OWNERSHIP: Record<string, (role: Role, ownersKey: boolean) => number> = {
  'POST /api/keys/:keyId/revoke': (role, ownersKey) => (role === 'owner' || ownersKey ? 200 : 404),
  // The request carries the owner's password; other users have none to change.
  'POST /api/account/password': (_role, ownersKey) => (ownersKey ? 204 : 400),
  // Members delete, restore and purge only their own runs; the target's runs are the owner's.
  ...Object.fromEntries(
    ['delete', 'restore', 'purge'].map((verb) => [
      `POST /api/runs/${verb}`,
      (role: Role, ownersKey: boolean) => (role === 'viewer' ? 403 : atLeast(role, 'admin') || ownersKey ? 200 : 403),
    ]),
  ),
};

/** Keys of the target's organization acting with each role: a user's own, and an owner's capped. */
const keys: { role: Role; how: string; key: string; ownersKey: boolean }[] = [];
let target: Target;
beforeAll(async () => {
  target = await createVictim(t.app, t.key);
  await giveOwnerPassword(t.stores.metadata, t.key, target);
  for (const role of ROLES) {
    const made = (userName: string, keyRole: Role | null, userRole: Role) =>
      createApiKey(t.stores.metadata, {
        orgSlug: t.org,
        userName,
        name: 'k',
        expiresAt: null,
        role: userRole,
        keyRole,
      });
    const own = (await made(`user-${role}`, null, role)).key;
    keys.push({ role, how: `a ${role}’s key`, key: own, ownersKey: false });
    const capped = (await made('ann', role, 'owner')).key;
    keys.push({ role, how: `the owner’s key capped at ${role}`, key: capped, ownersKey: true });
  }
});
afterAll(() => t.close());

const expected = (route: RouteEntry, role: Role, ownersKey: boolean): number =>
  !atLeast(role, route.role ?? 'owner')
    ? 403
    : (BY_OWNERSHIP[routeName(route)]?.(role, ownersKey) ?? successStatus(route));

describe('the route table', () => {
  it('gives every route that needs a key the role it needs', () => {
    expect(privateRoutes.filter((r) => r.role === undefined).map(routeName)).toEqual([]);
  });

  it('lets viewers only read: every route a viewer may call reads', () => {
    const viewerWrites = privateRoutes
      .filter((r) => r.role === 'viewer' && r.method !== 'GET')
      .map(routeName)
      .sort();
    // A read sent as POST (the Python client's login check), a user's own keys, account and authorizations.
    expect(viewerWrites).toEqual([
      'DELETE /api/account/sessions/:sessionId',
      // Answers 405 to everyone (the MCP endpoint has no session to end).
      'DELETE /mcp',
      'POST /api/account/organization',
      'POST /api/account/password',
      'POST /api/keys',
      'POST /api/keys/:keyId/revoke',
      'POST /api/notifications/read',
      'POST /api/oauth/apps/revoke',
      'POST /api/oauth/consent/:uid',
      'POST /api/slug',
      // The MCP endpoint: its write tools check the member role themselves (test/api/mcp-access.test.ts).
      'POST /mcp',
    ]);
  });
});

describe.each(ROLES)('%s, on every route', (role) => {
  it.each(privateRoutes.map((r) => ({ route: r, name: routeName(r) })))(
    '$name is allowed or refused with FORBIDDEN_ROLE as it declares',
    async ({ route }) => {
      for (const { how, key, ownersKey } of keys.filter((k) => k.role === role)) {
        const req = requestFor(route, target);
        const res = await t.app.inject({
          ...req,
          headers: { ...(req.headers as Record<string, string>), authorization: `Bearer ${key}` },
        });
        expect(res.statusCode, `${how}: ${res.body}`).toBe(expected(route, role, ownersKey));
        if (res.statusCode === 403) {
          expect(res.json()).toEqual({ error: expect.stringContaining(route.role!), code: 'FORBIDDEN_ROLE' });
        }
      }
    },
  );
});
