/**
 * The `createdBy` field of the run filter language (issue 29): a number matches the creator's
 * user id, a string the creator's name as runs show it; null and $exists see runs without a
 * creator. Runs on SQLite and (Vitest project `postgres`) PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../helpers/session-api.js';
import { makeTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
/** The invited member's user id and the owner's (the test app's key user, named `ann`). */
let member = 0;
let owner = 0;

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const tokenOf = (headers: Record<string, unknown>): string =>
  /^stepwise_session=([^;]+);/.exec(String(headers['set-cookie']))![1]!;

async function createAs(auth: { headers?: Record<string, string>; token?: string }, runName: string) {
  const res = await send(t.app, {
    method: 'POST',
    url: '/api/runs/create',
    body: { runName, projectName: 'who' },
    ...auth,
  });
  expect(res.status, res.text).toBe(200);
}

beforeAll(async () => {
  t = await makeTestApp();
  const invite = await send(t.app, {
    method: 'POST',
    url: '/api/members/invite',
    body: { email: 'bo@who.test', role: 'member' },
    headers: bearer(t.key),
  });
  const token = String(invite.body.url).split('#token=')[1]!;
  const accepted = await send(t.app, {
    method: 'POST',
    url: '/api/invitations/accept',
    body: { token, name: 'Bo Nakamura', password: 'a long password' },
  });
  expect(accepted.status, accepted.text).toBe(200);
  const session = tokenOf(accepted.headers);
  member = Number((await send(t.app, { url: '/api/account', token: session })).body.id);
  owner = Number((await send(t.app, { url: '/api/account', headers: bearer(t.key) })).body.id);
  await createAs({ headers: bearer(t.key) }, 'by-ann-1');
  await createAs({ headers: bearer(t.key) }, 'by-ann-2');
  await createAs({ token: session }, 'by-bo');
});
afterAll(() => t.close());

async function names(filter: unknown, sort = 'name') {
  const qs = new URLSearchParams({ projectName: 'who', filter: JSON.stringify(filter), sort });
  return send(t.app, { url: `/api/runs/list?${qs}`, headers: bearer(t.key) });
}

/** Filter cases: a description, the filter (ids filled in when the test runs) and the names it matches. */
const CASES: [string, () => unknown, string[]][] = [
  ['a user id matches that user’s runs', () => ({ createdBy: member }), ['by-bo']],
  ['a name matches that user’s runs', () => ({ createdBy: 'Bo Nakamura' }), ['by-bo']],
  ['the account name matches when no display name is set', () => ({ createdBy: 'ann' }), ['by-ann-1', 'by-ann-2']],
  ['$ne by id', () => ({ createdBy: { $ne: member } }), ['by-ann-1', 'by-ann-2']],
  [
    '$in mixes ids and names',
    () => ({ createdBy: { $in: [owner, 'Bo Nakamura'] } }),
    ['by-ann-1', 'by-ann-2', 'by-bo'],
  ],
  ['$nin by name', () => ({ createdBy: { $nin: ['ann'] } }), ['by-bo']],
  ['$regex with $options i matches the name', () => ({ createdBy: { $regex: '^bo ', $options: 'i' } }), ['by-bo']],
  ['an unknown user matches nothing', () => ({ createdBy: 999_999 }), []],
  ['a name is compared exactly', () => ({ createdBy: 'bo nakamura' }), []],
  [
    '$exists: true matches every run with a creator',
    () => ({ createdBy: { $exists: true } }),
    ['by-ann-1', 'by-ann-2', 'by-bo'],
  ],
  ['null matches runs without a creator', () => ({ createdBy: null }), []],
  ['ANDs with other fields', () => ({ createdBy: 'ann', name: 'by-ann-2' }), ['by-ann-2']],
];

describe('GET /api/runs/list filter createdBy', () => {
  it.each(CASES.map(([name, filter, expected]) => ({ name, filter, expected })))(
    '$name',
    async ({ filter, expected }) => {
      const res = await names(filter());
      expect(res.status, res.text).toBe(200);
      expect((res.body.runs as { name: string }[]).map((r) => r.name)).toEqual(expected);
    },
  );

  it('each row shows its creator', async () => {
    const res = await names({ createdBy: member });
    expect((res.body.runs as { createdBy: unknown }[])[0]!.createdBy).toEqual({ id: member, name: 'Bo Nakamura' });
  });

  it.each([
    ['a boolean', { createdBy: true }, 'user id'],
    ['a fractional id', { createdBy: 1.5 }, 'user id'],
    ['an object without operators', { createdBy: { id: 1 } }, 'operators'],
  ])('refuses %s with 400', async (_what, filter, message) => {
    const res = await names(filter);
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('BAD_REQUEST');
    expect(String(res.body.error)).toContain(message);
  });

  it('refuses to sort by createdBy', async () => {
    const res = await names({}, 'createdBy');
    expect(res.status, res.text).toBe(400);
    expect(String(res.body.error)).toContain('cannot sort by createdBy');
  });
});
