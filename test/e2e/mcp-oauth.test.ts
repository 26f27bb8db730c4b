/**
 * A tool client's whole way in, end to end (issue 32, docs/api.md §17-18): the MCP SDK's own
 * client, unmodified (Client, StreamableHTTPClientTransport and an OAuthClientProvider kept in
 * memory), against a spawned `stepwise serve`. Without a credential it is answered 401 with
 * the resource metadata's URL, discovers both metadata documents, registers itself and sends
 * the user to the authorization (PKCE S256); Chromium, signed in to the dashboard, clicks
 * "Allow" on the consent page and is sent on to the client's loopback redirect URI (a
 * node:http server here) with the code the transport finishes with. The token then reads the
 * seeded runs and metric series exactly; refresh rotates (the old refresh token is refused
 * and ends the grant, whose client then asks the user again by itself); revocation (RFC 7009)
 * ends an access token at once.
 */
import { createServer, type Server } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  discoverAuthorizationServerMetadata,
  refreshAuthorization,
  UnauthorizedError,
  type OAuthClientProvider,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InvalidGrantError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type {
  AuthorizationServerMetadata,
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, signIn } from '../helpers/browser.js';
import { buildUi } from '../helpers/build-ui.js';
import { http, ingestHttp } from '../helpers/http-client.js';
import { toolOk } from '../helpers/mcp-client.js';
import { buildDist, freePort, spawnServer, type SpawnedServer } from '../helpers/spawned-server.js';

const PROJECT = 'agent-e2e';
const STEPS = 50;
const TOOL_NAMES = [
  'compare_runs',
  'get_leaderboard',
  'get_logs',
  'get_metric_history',
  'get_metric_names',
  'get_run',
  'get_statistics',
  'list_alerts',
  'list_files',
  'list_projects',
  'search_runs',
  'stop_run',
  'update_notes',
  'update_tags',
];
/** The seeded series: values with no short decimal form, so an exact answer is the logged double. */
const lossAt = (run: number, step: number): number => (run + 1) / (step + 3) + Math.sin(step) / 7;

/** One request the client made: method, path and the answer's status (and WWW-Authenticate). */
interface Seen {
  method: string;
  path: string;
  status: number;
  wwwAuthenticate: string | null;
  bearer: string | null;
}

/** The client's OAuth state in memory, as an agent keeps it; records where it sends the user. */
class MemoryProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  readonly authorizationUrls: URL[] = [];

  constructor(readonly redirectUrl: string) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'E2E agent',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  state(): string {
    return `state-${this.authorizationUrls.length}`;
  }
  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.client = info;
  }
  tokens(): OAuthTokens | undefined {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL): void {
    this.authorizationUrls.push(url);
  }
  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }
  codeVerifier(): string {
    return this.verifier;
  }
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'client') this.client = undefined;
  }
}

/** The client's loopback redirect URI: answers the browser and hands over each URL it was sent to. */
class LoopbackReceiver {
  private server: Server | undefined;
  private waiting: ((url: URL) => void) | undefined;
  uri = '';

  async start(): Promise<void> {
    const port = await freePort();
    this.uri = `http://127.0.0.1:${port}/callback`;
    this.server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Signed in; you can close this window.</p>');
      if (req.url?.startsWith('/callback')) this.waiting?.(new URL(req.url, this.uri));
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
  }

  /** The next URL the browser is sent back with. */
  next(): Promise<URL> {
    return new Promise((resolve) => (this.waiting = resolve));
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

let server: SpawnedServer;
let browser: Browser;
const receiver = new LoopbackReceiver();
let provider: MemoryProvider;
let metadata: AuthorizationServerMetadata;
let revocationEndpoint = '';
const seen: Seen[] = [];
const runIds: number[] = [];
const clients: Client[] = [];

/** fetch for the transport: the same requests, each one recorded. */
const recordingFetch = async (url: string | URL, init?: RequestInit): Promise<Response> => {
  const res = await fetch(url, init);
  const bearer = new Headers(init?.headers).get('authorization')?.replace(/^Bearer /, '') ?? null;
  const target = new URL(url);
  seen.push({
    method: init?.method ?? 'GET',
    path: target.pathname,
    status: res.status,
    wwwAuthenticate: res.headers.get('www-authenticate'),
    bearer,
  });
  return res;
};

/** A new SDK client on `<base>/mcp` with the provider; resolves when connected (or rejects). */
async function connect(): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', server.baseUrl), {
    authProvider: provider,
    fetch: recordingFetch,
  });
  const client = new Client({ name: 'e2e-agent', version: '1.0.0' });
  clients.push(client);
  await client.connect(transport);
  return { client, transport };
}

/** Opens the authorization URL in Chromium signed in to the dashboard, clicks Allow, returns the code. */
async function consentInChromium(authorizationUrl: URL): Promise<string> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const back = receiver.next();
    await signIn(page, server.baseUrl, server.key, authorizationUrl.pathname + authorizationUrl.search);
    await page.getByRole('heading', { name: 'Allow E2E agent to use Stepwise?' }).waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/consent\//);
    await page.getByRole('button', { name: 'Allow' }).click();
    const url = await back;
    expect(url.searchParams.get('state')).toBe(authorizationUrl.searchParams.get('state'));
    expect(url.searchParams.get('error')).toBe(null);
    return url.searchParams.get('code') ?? '';
  } finally {
    await context.close();
  }
}

/** Status of a tools/list POST to /mcp with `token` as Bearer, and its WWW-Authenticate. */
async function mcpWith(token: string): Promise<{ status: number; wwwAuthenticate: string | null }> {
  const res = await fetch(`${server.baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  await res.body?.cancel();
  return { status: res.status, wwwAuthenticate: res.headers.get('www-authenticate') };
}

/** The SDK's refresh of `refreshToken` for the registered client. */
const refresh = (refreshToken: string): Promise<OAuthTokens> =>
  refreshAuthorization(`${server.baseUrl}/oauth`, {
    metadata,
    clientInformation: provider.client!,
    refreshToken,
    resource: new URL(`${server.baseUrl}/mcp`),
  });

/** RFC 7009 revocation at the metadata's endpoint, as the public client. */
async function revoke(token: string, hint: 'access_token' | 'refresh_token'): Promise<number> {
  const res = await fetch(revocationEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, token_type_hint: hint, client_id: provider.client!.client_id }),
  });
  await res.body?.cancel();
  return res.status;
}

/** The whole authorization as the SDK drives it: connect refused, consent in Chromium, finishAuth. */
async function authorizeThroughSdk(): Promise<URL> {
  const before = provider.authorizationUrls.length;
  const refused = connect();
  await expect(refused).rejects.toBeInstanceOf(UnauthorizedError);
  expect(provider.authorizationUrls.length).toBe(before + 1);
  const authorizationUrl = provider.authorizationUrls.at(-1)!;
  const code = await consentInChromium(authorizationUrl);
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', server.baseUrl), {
    authProvider: provider,
    fetch: recordingFetch,
  });
  await transport.finishAuth(code);
  await transport.close();
  return authorizationUrl;
}

beforeAll(async () => {
  await Promise.all([buildDist(), buildUi()]);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  [server, browser] = await Promise.all([
    spawnServer([], { port, env: { STEPWISE_PUBLIC_URL: baseUrl } }),
    launchChromium(),
    receiver.start(),
  ]).then(([s, b]) => [s, b] as const);
  provider = new MemoryProvider(receiver.uri);
  for (let run = 0; run < 3; run++) {
    const created = await http(server.baseUrl, 'POST', '/api/runs/create', {
      key: server.key,
      json: { runName: `agent-run-${run}`, projectName: PROJECT, tags: [`t${run}`] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const runId = created.body.runId as number;
    runIds.push(runId);
    const lines = Array.from({ length: STEPS }, (_, step) =>
      JSON.stringify({ time: 1_700_000_000_000 + step, step, data: { 'train/loss': lossAt(run, step) } }),
    );
    const ingested = await ingestHttp(server.baseUrl, server.key, 'metrics', runId, PROJECT, `${lines.join('\n')}\n`);
    expect(ingested.status, JSON.stringify(ingested.body)).toBe(200);
  }
}, 120_000);

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await browser?.close();
  await receiver.close();
  await server?.stop();
});

describe('the MCP SDK client through OAuth against a spawned server', () => {
  it('is refused 401, discovers, registers and is authorized with PKCE through the consent page', async () => {
    const authorizationUrl = await authorizeThroughSdk();
    const first = seen[0]!;
    expect(first).toMatchObject({ method: 'POST', path: '/mcp', status: 401, bearer: null });
    expect(first.wwwAuthenticate).toBe(
      `Bearer resource_metadata="${server.baseUrl}/.well-known/oauth-protected-resource/mcp"`,
    );
    const paths = seen.map((s) => `${s.method} ${s.path} ${s.status}`);
    expect(paths).toContain('GET /.well-known/oauth-protected-resource/mcp 200');
    expect(paths).toContain('GET /.well-known/oauth-authorization-server/oauth 200');
    expect(paths).toContain('POST /oauth/reg 201');
    expect(paths.at(-1)).toBe('POST /oauth/token 200');
    expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${server.baseUrl}/oauth/auth`);
    const params = authorizationUrl.searchParams;
    expect(params.get('response_type')).toBe('code');
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(params.get('client_id')).toBe(provider.client!.client_id);
    expect(params.get('redirect_uri')).toBe(receiver.uri);
    expect(params.get('resource')).toBe(`${server.baseUrl}/mcp`);
    expect(params.get('scope')).toBe('runs:read runs:write');
    expect(provider.saved?.access_token).toBeTruthy();
    expect(provider.saved?.refresh_token).toBeTruthy();
    metadata = (await discoverAuthorizationServerMetadata(`${server.baseUrl}/oauth`))!;
    revocationEndpoint = 'revocation_endpoint' in metadata ? (metadata.revocation_endpoint ?? '') : '';
    expect(revocationEndpoint).toBe(`${server.baseUrl}/oauth/token/revocation`);
  });

  it('reconnects with the token: 14 tools, and search_runs and get_metric_history answer the seeded data exactly', async () => {
    const { client } = await connect();
    expect(seen.at(-1)!.bearer).toBe(provider.saved!.access_token);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOL_NAMES);

    const found = await toolOk<{ runs: { id: number; name: string; tags: string[] }[] }>(client, 'search_runs', {
      projectName: PROJECT,
      sort: 'name',
    });
    const listed = await http(server.baseUrl, 'GET', `/api/runs/list?projectName=${PROJECT}&sort=name&limit=20`, {
      key: server.key,
    });
    expect(listed.status).toBe(200);
    expect(found).toEqual({ ...listed.body, total: 3, hasMore: false });
    expect(found.runs.map((r) => [r.id, r.name, r.tags])).toEqual(
      runIds.map((id, i) => [id, `agent-run-${i}`, [`t${i}`]]),
    );

    for (const [run, runId] of runIds.entries()) {
      const history = await toolOk<{ points: { step: number; value: number }[] }>(client, 'get_metric_history', {
        runId,
        logName: 'train/loss',
      });
      const query = new URLSearchParams({ runId: String(runId), logName: 'train/loss', limit: '2000' });
      const route = await http(server.baseUrl, 'GET', `/api/runs/metrics?${query}`, { key: server.key });
      expect(route.status).toBe(200);
      expect(history).toEqual({
        runId,
        logName: 'train/loss',
        points: route.body.metrics,
        total: STEPS,
        sampled: false,
        truncated: false,
        hasMore: false,
      });
      const logged = Array.from({ length: STEPS }, (_, step) => ({ step, value: lossAt(run, step) }));
      expect(history.points.map((p) => ({ step: p.step, value: p.value }))).toEqual(logged);
    }
  });

  it('refreshes with rotation; the old refresh token is then invalid_grant and ends the grant', async () => {
    const first = provider.saved!;
    const rotated = await refresh(first.refresh_token!);
    expect(rotated.refresh_token).toBeTruthy();
    expect(rotated.refresh_token).not.toBe(first.refresh_token);
    expect(rotated.access_token).not.toBe(first.access_token);
    provider.saveTokens({ ...rotated, issuer: first.issuer });
    const { client } = await connect();
    expect((await client.listTools()).tools).toHaveLength(14);
    expect(seen.at(-1)!.bearer).toBe(rotated.access_token);

    const reused = refresh(first.refresh_token!);
    await expect(reused).rejects.toBeInstanceOf(InvalidGrantError);
    // Reuse of a rotated refresh token ends the whole grant (docs/api.md §18).
    await expect(refresh(rotated.refresh_token!)).rejects.toBeInstanceOf(InvalidGrantError);
    expect((await mcpWith(rotated.access_token)).status).toBe(401);
  });

  it('authorizes again on its own once the grant is gone; a revoked access token is refused at once', async () => {
    // The stored tokens are dead: the SDK's refresh is invalid_grant, so it drops them and asks again.
    const start = seen.length;
    await authorizeThroughSdk();
    const tried = seen.slice(start).map((s) => `${s.method} ${s.path} ${s.status}`);
    expect(tried[0]).toBe('POST /mcp 401');
    expect(tried).toContain('POST /oauth/token 400');
    const granted = provider.saved!;
    const { client } = await connect();
    expect(seen.at(-1)!.bearer).toBe(granted.access_token);
    await toolOk(client, 'list_projects', {});

    expect(await revoke(granted.access_token, 'access_token')).toBe(200);
    const after = await mcpWith(granted.access_token);
    expect(after.status).toBe(401);
    expect(after.wwwAuthenticate).toContain('error="invalid_token"');

    // The SDK's client holding only the revoked token is refused too (and asks the user again).
    const holder = new MemoryProvider(receiver.uri);
    holder.client = provider.client;
    holder.saved = { access_token: granted.access_token, token_type: 'Bearer' };
    const before = seen.length;
    const transport = new StreamableHTTPClientTransport(new URL('/mcp', server.baseUrl), {
      authProvider: holder,
      fetch: recordingFetch,
    });
    const refusedClient = new Client({ name: 'e2e-agent', version: '1.0.0' });
    clients.push(refusedClient);
    await expect(refusedClient.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(seen[before]).toMatchObject({ path: '/mcp', status: 401, bearer: granted.access_token });
    expect(holder.authorizationUrls).toHaveLength(1);
  });
});
