import type { FastifyInstance, FastifySchema } from 'fastify';
import type { Role } from '../domain/roles.js';

/** One route as registered: its method, URL pattern, whether it skips API keys, its role, its schema. */
export interface RouteEntry {
  method: string;
  url: string;
  public: boolean;
  /** The narrowest role that may call it (config.role); undefined when it declares none. */
  role: Role | undefined;
  schema: FastifySchema | undefined;
}

const tables = new WeakMap<object, RouteEntry[]>();

/**
 * Starts recording every route registered on the app from now on (HEAD twins of GET
 * routes are left out). Call before registering routes; read with routeTable().
 */
export function recordRoutes(app: FastifyInstance): void {
  const entries: RouteEntry[] = [];
  tables.set(app, entries);
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat().filter((m) => m !== 'HEAD');
    const config = route.config as { public?: boolean; role?: Role } | undefined;
    for (const method of methods) {
      entries.push({
        method,
        url: route.url,
        public: config?.public === true,
        role: config?.role,
        schema: route.schema,
      });
    }
  });
}

/** The routes recorded for this app, in registration order ([] when none were recorded). */
export function routeTable(app: FastifyInstance): readonly RouteEntry[] {
  return tables.get(app) ?? [];
}
