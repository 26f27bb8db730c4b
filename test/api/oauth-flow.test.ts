import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listeningApp, tokensFor } from '../helpers/oauth-flow.js';
import { signIn } from '../helpers/session-api.js';
import type { TestApp } from '../helpers/test-app.js';

let t: TestApp & { baseUrl: string };
beforeAll(async () => {
  t = await listeningApp();
});
afterAll(async () => {
  await t.close();
});

describe('the OAuth flow of a tool client', () => {
  it('gives a token that GET /api/runs/auth/validate answers for as the user in its organization', async () => {
    const session = await signIn(t.app, t.key);
    const { tokens } = await tokensFor(t.baseUrl, session);
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.refresh_token).toBeTruthy();
    const res = await fetch(`${t.baseUrl}/api/runs/auth/validate`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(((await res.json()) as { organization: { slug: string } }).organization.slug).toBe(t.org);
  });
});
