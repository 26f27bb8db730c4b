/**
 * The OAuth 2.1 flow of a tool client in tests (docs/api.md §18), driven with the MCP SDK's
 * own client functions against a server listening on loopback; the consent is given through
 * the API by a user signed in to the dashboard (a session cookie), as the consent page does.
 */
import {
  discoverAuthorizationServerMetadata,
  exchangeAuthorization,
  registerClient,
  startAuthorization,
} from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  AuthorizationServerMetadata,
  OAuthClientInformationFull,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { expect } from 'vitest';
import { makeTestApp, type TestApp } from './test-app.js';
import { freePort } from './spawned-server.js';

/** Where test clients are sent back to (nothing listens; browser tests answer it in the page). */
export const REDIRECT_URI = 'http://127.0.0.1:8976/callback';

/** A test app listening on loopback whose public URL is its own address. */
export async function listeningApp(env: NodeJS.ProcessEnv = {}): Promise<TestApp & { baseUrl: string }> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const t = await makeTestApp({ STEPWISE_PUBLIC_URL: baseUrl, ...env });
  await t.app.listen({ port, host: '127.0.0.1' });
  return Object.assign(t, { baseUrl });
}

/** Cookies as a browser keeps them for one origin (paths ignored: every cookie is sent). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  constructor(initial: Record<string, string> = {}) {
    for (const [name, value] of Object.entries(initial)) this.cookies.set(name, value);
  }

  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
  }
}

/** The authorization server's metadata and a client registered through it (public, PKCE). */
export async function registerTestClient(
  baseUrl: string,
  name = 'Test agent',
): Promise<{ metadata: AuthorizationServerMetadata; client: OAuthClientInformationFull }> {
  const metadata = await discoverAuthorizationServerMetadata(`${baseUrl}/oauth`);
  expect(metadata).toBeDefined();
  const client = await registerClient(`${baseUrl}/oauth`, {
    metadata,
    clientMetadata: {
      client_name: name,
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
  });
  return { metadata: metadata!, client };
}

/** What one authorization gave: the code, its verifier, and the consent page's uid. */
export interface Authorized {
  code: string;
  codeVerifier: string;
  uid: string;
}

/**
 * Starts an authorization (scope `scope`), follows it to the consent page like a browser,
 * decides through the API as the session `sessionToken` and follows the answer back to the
 * redirect URI; returns the code (or throws with the error the client got).
 */
export async function authorize(
  baseUrl: string,
  o: {
    metadata: AuthorizationServerMetadata;
    client: OAuthClientInformationFull;
    sessionToken: string;
    scope?: string;
    resource?: string;
    decision?: 'allow' | 'deny';
  },
): Promise<Authorized & { redirect: URL }> {
  const { authorizationUrl, codeVerifier } = await startAuthorization(`${baseUrl}/oauth`, {
    metadata: o.metadata,
    clientInformation: o.client,
    redirectUrl: REDIRECT_URI,
    scope: o.scope ?? 'runs:read runs:write',
    state: 'st4te',
    resource: new URL(o.resource ?? `${baseUrl}/mcp`),
  });
  const jar = new CookieJar({ stepwise_session: o.sessionToken });
  const first = await fetch(authorizationUrl, { redirect: 'manual' });
  jar.take(first);
  const consentUrl = new URL(first.headers.get('location') ?? '', baseUrl);
  if (!consentUrl.pathname.startsWith('/consent/')) {
    return { code: '', codeVerifier, uid: '', redirect: consentUrl };
  }
  const uid = consentUrl.pathname.slice('/consent/'.length);
  const headers = { cookie: jar.header(), origin: baseUrl };
  const details = await fetch(`${baseUrl}/api/oauth/consent/${uid}`, { headers });
  expect(details.status, await details.clone().text()).toBe(200);
  const decided = await fetch(`${baseUrl}/api/oauth/consent/${uid}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ decision: o.decision ?? 'allow' }),
  });
  expect(decided.status, await decided.clone().text()).toBe(200);
  let next = ((await decided.json()) as { redirectTo: string }).redirectTo;
  for (let hop = 0; hop < 5; hop++) {
    const url = new URL(next, baseUrl);
    if (url.origin !== baseUrl) break;
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.take(res);
    const location = res.headers.get('location');
    expect(location, `hop ${hop} answered ${res.status}: ${await res.text()}`).toBeTruthy();
    next = location!;
  }
  const redirect = new URL(next);
  return { code: redirect.searchParams.get('code') ?? '', codeVerifier, uid, redirect };
}

/** Registers a client, authorizes it as the session and exchanges the code for tokens. */
export async function tokensFor(
  baseUrl: string,
  sessionToken: string,
  scope = 'runs:read runs:write',
): Promise<{ tokens: OAuthTokens; metadata: AuthorizationServerMetadata; client: OAuthClientInformationFull }> {
  const { metadata, client } = await registerTestClient(baseUrl);
  const { code, codeVerifier } = await authorize(baseUrl, { metadata, client, sessionToken, scope });
  const tokens = await exchangeAuthorization(`${baseUrl}/oauth`, {
    metadata,
    clientInformation: client,
    authorizationCode: code,
    codeVerifier,
    redirectUri: REDIRECT_URI,
    resource: new URL(`${baseUrl}/mcp`),
  });
  return { tokens, metadata, client };
}
