/**
 * A real OpenID Connect provider (`oidc-provider`) on loopback for the SSO tests: one
 * confidential client and fixed accounts. Its development sign-in form takes any password
 * for a login of ACCOUNTS, then asks for consent ("Continue").
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type OidcAccount } from 'oidc-provider';

export interface TestAccount {
  email: string;
  emailVerified: boolean;
  name: string;
}

/** The logins the provider knows; any other login is an unknown account. */
export const ACCOUNTS: Record<string, TestAccount> = {
  ann: { email: 'ann.sso@example.com', emailVerified: true, name: 'Ann Single' },
  bob: { email: 'bob.sso@example.com', emailVerified: false, name: 'Bob Unverified' },
};

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

/** Starts the provider for a client whose only redirect URI is `redirectUri`. */
export async function startTestProvider(redirectUri: string): Promise<TestProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'stepwise-test';
  const clientSecret = 'a-test-client-secret-of-enough-length-0123456789';
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: ['stepwise-test-provider-cookie-key'] },
    ttl: { AccessToken: 600, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
    findAccount: (_ctx: unknown, id: string): OidcAccount | undefined => {
      const account = ACCOUNTS[id];
      if (!account) return undefined;
      return {
        accountId: id,
        claims: () =>
          Promise.resolve({ sub: id, email: account.email, email_verified: account.emailVerified, name: account.name }),
      };
    },
  });
  server.on('request', provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Does what a browser does at the provider, over HTTP: follows `authUrl`'s redirects and
 * submits its sign-in form (`login`, any password) and consent form, until the provider
 * sends the browser to `redirectUri`; returns that URL (with `code` and `state`).
 */
export async function signInAtProvider(authUrl: string, login: string, redirectUri: string): Promise<URL> {
  const jar = new Map<string, string>();
  let next: { url: string; form?: URLSearchParams } = { url: authUrl };
  for (let hop = 0; hop < 20; hop++) {
    const res = await fetch(next.url, {
      method: next.form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(next.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: next.form?.toString(),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    const location = res.headers.get('location');
    if (location !== null) {
      const target = new URL(location, next.url);
      if (target.href.startsWith(redirectUri)) return target;
      next = { url: target.href };
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1];
    if (res.status !== 200 || !action || !prompt)
      throw new Error(`provider answered ${res.status}: ${html.slice(0, 300)}`);
    const form = new URLSearchParams({ prompt });
    if (prompt === 'login') {
      form.set('login', login);
      form.set('password', 'any password');
    }
    next = { url: new URL(action.replace(/&amp;/g, '&'), next.url).href, form };
  }
  throw new Error('the provider never sent the browser back');
}
