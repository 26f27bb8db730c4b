import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { Role } from '../domain/roles.js';
import type { Principal } from '../domain/types.js';

/** The Fastify instance type every route module registers on. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is asking; set by the auth hook on every authenticated route. */
    principal: Principal | null;
    /** The SHA-256 of the session token the request signed in with; null for a key (or no auth). */
    sessionHash: string | null;
  }
  interface FastifyContextConfig {
    /** True for routes that need no API key (health, signed file links, dashboard). */
    public?: boolean;
    /**
     * The narrowest role that may call the route (every route that is not public declares
     * one; one that does not is refused to all but owners, and the route-role test fails).
     */
    role?: Role;
    /**
     * True for the routes an OAuth access token may call besides a key or a session: the
     * token's resource (/mcp) and GET /api/runs/auth/validate (docs/api.md §18).
     */
    oauthResource?: boolean;
  }
}
