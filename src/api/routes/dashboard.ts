import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { notFound } from '../../errors.js';
import type { App } from '../app-types.js';
import { sendStaticFile } from '../static-file.js';

/** Vite's hashed file names never change content: cache them for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Other files at the root of the build (favicon, robots.txt) keep their names: cache briefly. */
const SHORT = 'public, max-age=300';
/** The page itself is revalidated on every load, so a new build shows at once. */
const NO_CACHE = 'no-cache';
/** Paths the dashboard never answers: the API, ingest and file routes keep their JSON 404s. */
const SERVER_PATHS = /^\/(api|ingest|files)(\/|$)/;
/** Paths under /assets that the asset route did not take (`/assets`, `/assets/`). */
const ASSET_PATHS = /^\/assets(\/|$)/;
/** One path segment of a built file as the URL spells it: no dot files, no `..`, nothing to decode. */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/** The request's path as sent (not decoded), without the query. */
const rawPath = (request: FastifyRequest): string => (request.raw.url ?? '/').split('?')[0]!;

/**
 * The built dashboard in `uiDir` (Vite's `index.html` and `assets/`), without a key:
 * `GET /assets/*` (immutable caching, JSON 404 when unknown), files at the build's root, and
 * `index.html` for every other path outside /api, /ingest and /files (the dashboard's own
 * routes). Only plain segments are looked up, so no path leaves `uiDir`. Register last.
 */
export function registerDashboardRoutes(app: App, uiDir: string): void {
  const index = path.join(uiDir, 'index.html');

  app.get('/assets/*', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    const segments = rawPath(request).slice('/assets/'.length).split('/');
    const found =
      segments.every((s) => SEGMENT.test(s)) &&
      (await sendStaticFile(reply, path.join(uiDir, 'assets', ...segments), IMMUTABLE));
    if (!found) throw notFound(`no dashboard asset ${rawPath(request)}`);
    return reply;
  });

  app.get('/*', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    const url = rawPath(request);
    if (SERVER_PATHS.test(url)) return reply.callNotFound();
    if (ASSET_PATHS.test(url)) throw notFound(`no dashboard asset ${url}`);
    const name = url.slice(1);
    if (SEGMENT.test(name) && name !== 'index.html' && (await sendStaticFile(reply, path.join(uiDir, name), SHORT))) {
      return reply;
    }
    if (await sendStaticFile(reply, index, NO_CACHE)) return reply;
    throw notFound('the dashboard is not built: run `npm run build` (or point STEPWISE_UI_DIR at a built ui/dist)');
  });
}
