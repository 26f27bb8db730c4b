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
