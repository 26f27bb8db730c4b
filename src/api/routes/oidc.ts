import type { FastifyReply, FastifyRequest } from 'fastify';
import { OidcSignIn, signInVerifiedEmail, type OidcPending } from '../../auth/oidc.js';
import { AppError, HTTP_STATUS, notFound } from '../../errors.js';
import type { Deps } from '../../services/context.js';
import type { SessionAuthenticator } from '../../services/session-authenticator.js';
import type { App } from '../app-types.js';
import { AuthProviders, OidcCallbackQuery } from '../schemas/oidc.js';
import { sessionCookie } from '../session-cookie.js';

/** The cookie that carries a started sign-in's state, nonce and PKCE verifier to the callback. */
const PENDING_COOKIE = 'stepwise_oidc';
const PENDING_PATH = '/api/auth/oidc';
const PENDING_SECONDS = 600;

const pendingCookie = (value: string, maxAge: number, secure: boolean): string =>
  `${PENDING_COOKIE}=${value}; Max-Age=${maxAge}; Path=${PENDING_PATH}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

/** The started sign-in of the request's cookie, or undefined (none, or not one of ours). */
function readPending(header: string | undefined): OidcPending | undefined {
  for (const part of header?.split(';') ?? []) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== PENDING_COOKIE) continue;
    const text = part.slice(eq + 1).trim();
    if (text.length > 1024) return undefined;
    try {
      const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<OidcPending>;
      const { state, nonce, verifier } = value;
      if (typeof state === 'string' && typeof nonce === 'string' && typeof verifier === 'string') {
        return { state, nonce, verifier };
      }
    } catch {
      return undefined;
    }
  }
  return undefined;
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A refused sign-in as a page for a browser (with a way back), as `{error, code}` for anyone else. */
function refuse(request: FastifyRequest, reply: FastifyReply, err: AppError, secure: boolean): FastifyReply {
  void reply.status(HTTP_STATUS[err.code]).header('set-cookie', pendingCookie('', 0, secure));
  if (!(request.headers.accept ?? '').includes('text/html')) return reply.send({ error: err.message, code: err.code });
  return reply
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><meta charset="utf-8"><title>Sign-in refused · Stepwise</title>` +
        `<h1>Sign-in refused</h1><p role="alert">${escapeHtml(err.message)}</p><p><a href="/sign-in">Back to sign in</a></p>`,
    );
}

/**
 * GET /api/auth/providers (which sign-in methods the sign-in page offers), and, when
 * STEPWISE_OIDC_* are set, GET /api/auth/oidc/start (redirects to the provider) and GET
 * /api/auth/oidc/callback (signs in and redirects to the dashboard). All are public: they
 * run before a session exists. Without OIDC configured the two answer 404.
 */
export function registerOidcRoutes(app: App, deps: Deps, sessions: SessionAuthenticator): void {
  const { publicUrl, oidc } = deps.config;
  const secure = publicUrl.startsWith('https://');
  const signIn = oidc ? new OidcSignIn(oidc, publicUrl) : undefined;
  const off = () => notFound('single sign-on is not configured on this server');

  app.get(
    '/api/auth/providers',
    { config: { public: true }, schema: { response: { 200: AuthProviders }, security: [] } },
    (): AuthProviders => ({ oidc: signIn !== undefined }),
  );

  app.get('/api/auth/oidc/start', { config: { public: true }, schema: { security: [] } }, async (_request, reply) => {
    if (!signIn) throw off();
    const { url, pending } = await signIn.start();
    const value = Buffer.from(JSON.stringify(pending), 'utf8').toString('base64url');
    return reply.header('set-cookie', pendingCookie(value, PENDING_SECONDS, secure)).redirect(url, 302);
  });

  app.get(
    '/api/auth/oidc/callback',
    { config: { public: true }, schema: { querystring: OidcCallbackQuery, security: [] } },
    async (request, reply) => {
      if (!signIn || !oidc) throw off();
      try {
        // The redirect URI as registered, with the provider's parameters (publicUrl may have a path).
        const url = new URL(signIn.redirectUri);
        url.search = new URL(request.url, 'http://x').search;
        const who = await signIn.finish(url, readPending(request.headers.cookie));
        const { token } = await signInVerifiedEmail(deps, sessions, who, oidc.defaultRole);
        return reply
          .header('set-cookie', [pendingCookie('', 0, secure), sessionCookie(token, sessions.maxAgeSeconds, secure)])
          .redirect('/', 303);
      } catch (err) {
        if (err instanceof AppError) return refuse(request, reply, err, secure);
        throw err;
      }
    },
  );
}
