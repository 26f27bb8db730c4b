import { exchangeAuthorization, refreshAuthorization } from '@modelcontextprotocol/sdk/client/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorize, listeningApp, REDIRECT_URI, registerTestClient, tokensFor } from '../helpers/oauth-flow.js';
import { signIn } from '../helpers/session-api.js';
import type { TestApp } from '../helpers/test-app.js';

let t: TestApp & { baseUrl: string };
beforeAll(async () => {
  t = await listeningApp();
});
afterAll(async () => {
  await t.close();
});

/** GET /api/runs/auth/validate with a Bearer: its status and organization slug. */
async function validate(token: string): Promise<{ status: number; org?: string }> {
  const res = await fetch(`${t.baseUrl}/api/runs/auth/validate`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { organization?: { slug: string } };
  return { status: res.status, org: body.organization?.slug };
}

/** A form POST to an endpoint of the authorization server: status and JSON body. */
async function form(
  path: string,
  fields: Record<string, string>,
): Promise<{ status: number; body: Record<string, string> }> {
  const res = await fetch(`${t.baseUrl}/oauth${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  const text = await res.text();
  return { status: res.status, body: (text === '' ? {} : JSON.parse(text)) as Record<string, string> };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the authorization server metadata', () => {
  it('is served at the path-inserted RFC 8414 URL and names only what is allowed', async () => {
    const res = await fetch(`${t.baseUrl}/.well-known/oauth-authorization-server/oauth`);
    expect(res.status).toBe(200);
    const m = (await res.json()) as Record<string, unknown>;
    expect(m.issuer).toBe(`${t.baseUrl}/oauth`);
    expect(m.code_challenge_methods_supported).toEqual(['S256']);
    expect(m.response_types_supported).toEqual(['code']);
    expect([...(m.grant_types_supported as string[])].sort()).toEqual(['authorization_code', 'refresh_token']);
    expect(m.scopes_supported).toEqual(expect.arrayContaining(['runs:read', 'runs:write']));
    expect(m.registration_endpoint).toBe(`${t.baseUrl}/oauth/reg`);
    expect(m.revocation_endpoint).toBe(`${t.baseUrl}/oauth/token/revocation`);
    const own = await fetch(`${t.baseUrl}/oauth/.well-known/openid-configuration`);
    expect(((await own.json()) as Record<string, unknown>).issuer).toBe(`${t.baseUrl}/oauth`);
  });
});

describe('the OAuth flow of a tool client', () => {
  it('gives a token that GET /api/runs/auth/validate answers for as the user in its organization only', async () => {
    const session = await signIn(t.app, t.key);
    const { tokens } = await tokensFor(t.baseUrl, session);
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.scope?.split(' ').sort()).toEqual(['runs:read', 'runs:write']);
    expect(await validate(tokens.access_token)).toEqual({ status: 200, org: t.org });
    // Routes not marked as the token's resource do not take it.
    const other = await fetch(`${t.baseUrl}/api/runs/projects`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(other.status).toBe(401);
  });

  it('refuses a wrong PKCE verifier and a code used twice (which also ends the first token)', async () => {
    const session = await signIn(t.app, t.key);
    const { metadata, client } = await registerTestClient(t.baseUrl);
    const a = await authorize(t.baseUrl, { metadata, client, sessionToken: session });
    const exchange = (verifier: string) =>
      exchangeAuthorization(`${t.baseUrl}/oauth`, {
        metadata,
        clientInformation: client,
        authorizationCode: a.code,
        codeVerifier: verifier,
        redirectUri: REDIRECT_URI,
        resource: new URL(`${t.baseUrl}/mcp`),
      });
    await expect(exchange(`${a.codeVerifier.slice(0, -4)}AAAA`)).rejects.toThrow(/grant/i);
    const b = await authorize(t.baseUrl, { metadata, client, sessionToken: session });
    const first = await exchangeAuthorization(`${t.baseUrl}/oauth`, {
      metadata,
      clientInformation: client,
      authorizationCode: b.code,
      codeVerifier: b.codeVerifier,
      redirectUri: REDIRECT_URI,
    });
    expect((await validate(first.access_token)).status).toBe(200);
    await expect(
      exchangeAuthorization(`${t.baseUrl}/oauth`, {
        metadata,
        clientInformation: client,
        authorizationCode: b.code,
        codeVerifier: b.codeVerifier,
        redirectUri: REDIRECT_URI,
      }),
    ).rejects.toThrow(/grant/i);
    await wait(1100);
    expect((await validate(first.access_token)).status).toBe(401);
  });

  it('refuses a token for another resource, plain PKCE, implicit, password and client-credentials grants', async () => {
    const session = await signIn(t.app, t.key);
    const { metadata, client } = await registerTestClient(t.baseUrl);
    const other = await authorize(t.baseUrl, {
      metadata,
      client,
      sessionToken: session,
      resource: 'https://elsewhere.example/mcp',
    });
    expect(other.redirect.searchParams.get('error')).toBe('invalid_target');
    const base = {
      client_id: client.client_id,
      redirect_uri: REDIRECT_URI,
      scope: 'runs:read',
      state: 's',
      code_challenge: 'a'.repeat(43),
    };
    const start = async (params: Record<string, string>) => {
      const res = await fetch(`${t.baseUrl}/oauth/auth?${new URLSearchParams(params).toString()}`, {
        redirect: 'manual',
      });
      const location = res.headers.get('location');
      if (location === null) return `${res.status} ${((await res.json()) as { error: string }).error}`;
      const url = new URL(location, t.baseUrl);
      return url.searchParams.get('error') ?? new URLSearchParams(url.hash.slice(1)).get('error');
    };
    expect(await start({ ...base, response_type: 'code', code_challenge_method: 'plain' })).toBe('invalid_request');
    // Without a method the challenge would be plain (RFC 7636): refused too.
    expect(await start({ ...base, response_type: 'code' })).toBe('invalid_request');
    expect(await start({ ...base, response_type: 'token', code_challenge_method: 'S256' })).toBe(
      'unsupported_response_type',
    );
    const noChallenge: Record<string, string> = { ...base, response_type: 'code' };
    delete noChallenge.code_challenge;
    expect(await start(noChallenge)).toBe('invalid_request');
    const password = await form('/token', {
      grant_type: 'password',
      username: 'a',
      password: 'b',
      client_id: client.client_id,
    });
    expect(password.body.error).toBe('unsupported_grant_type');
    const credentials = await form('/token', { grant_type: 'client_credentials', client_id: client.client_id });
    expect(credentials.body.error).toBe('unsupported_grant_type');
    const a = await authorize(t.baseUrl, { metadata, client, sessionToken: session });
    const wrongResource = await form('/token', {
      grant_type: 'authorization_code',
      code: a.code,
      code_verifier: a.codeVerifier,
      redirect_uri: REDIRECT_URI,
      client_id: client.client_id,
      resource: 'https://elsewhere.example/mcp',
    });
    expect(wrongResource.status).toBe(400);
    expect(wrongResource.body.error).toBe('invalid_target');
  });

  it('rotates the refresh token on every use; the old one then fails', async () => {
    const session = await signIn(t.app, t.key);
    const { tokens, metadata, client } = await tokensFor(t.baseUrl, session);
    const refresh = (refreshToken: string) =>
      refreshAuthorization(`${t.baseUrl}/oauth`, { metadata, clientInformation: client, refreshToken });
    const next = await refresh(tokens.refresh_token!);
    expect(next.refresh_token).toBeTruthy();
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    expect(await validate(next.access_token)).toEqual({ status: 200, org: t.org });
    await expect(refresh(tokens.refresh_token!)).rejects.toThrow(/grant/i);
  });

  it('revokes an access token (RFC 7009) at once, and a refresh token with its whole grant', async () => {
    const session = await signIn(t.app, t.key);
    const { tokens, client } = await tokensFor(t.baseUrl, session);
    const revoked = await fetch(`${t.baseUrl}/oauth/token/revocation`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.access_token, client_id: client.client_id }).toString(),
    });
    expect(revoked.status).toBe(200);
    await wait(1100);
    expect((await validate(tokens.access_token)).status).toBe(401);
    const second = await tokensFor(t.baseUrl, session);
    await form('/token/revocation', { token: second.tokens.refresh_token!, client_id: second.client.client_id });
    await wait(1100);
    expect((await validate(second.tokens.access_token)).status).toBe(401);
  });

  it('ends the token when the sign-in key of the session that allowed it is revoked', async () => {
    const made = await fetch(`${t.baseUrl}/api/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'laptop' }),
    });
    const key = (await made.json()) as { id: number; key: string };
    const session = await signIn(t.app, key.key);
    const { tokens } = await tokensFor(t.baseUrl, session);
    expect((await validate(tokens.access_token)).status).toBe(200);
    const revoke = await fetch(`${t.baseUrl}/api/keys/${key.id}/revoke`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}` },
    });
    expect(revoke.status).toBe(200);
    await wait(1100);
    expect((await validate(tokens.access_token)).status).toBe(401);
  });

  it('ends with access_denied at the client when the user denies', async () => {
    const session = await signIn(t.app, t.key);
    const { metadata, client } = await registerTestClient(t.baseUrl);
    const denied = await authorize(t.baseUrl, { metadata, client, sessionToken: session, decision: 'deny' });
    expect(denied.redirect.searchParams.get('error')).toBe('access_denied');
    expect(denied.code).toBe('');
  });

  it('grants runs:read to an authorization that names no scope', async () => {
    const session = await signIn(t.app, t.key);
    const { tokens } = await tokensFor(t.baseUrl, session, '');
    expect(tokens.scope).toBe('runs:read');
    expect(await validate(tokens.access_token)).toEqual({ status: 200, org: t.org });
  });
});
