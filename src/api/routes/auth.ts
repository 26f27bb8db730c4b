import { Type } from '@sinclair/typebox';
import type { Principal } from '../../domain/types.js';
import type { Deps } from '../../services/context.js';
import type { App } from '../app-types.js';
import { ctxOf } from '../hooks/auth-hook.js';

/** The answer of GET /api/runs/auth/validate and POST /api/session: who the credentials act as. */
export const ValidateResponse = Type.Object({
  valid: Type.Boolean(),
  organization: Type.Object({ id: Type.String(), slug: Type.String() }),
  user: Type.Object({ id: Type.String() }),
});

/** The ValidateResponse of a principal (ids as strings). */
export const validAnswer = (principal: Principal) => ({
  valid: true,
  organization: { id: String(principal.orgId), slug: principal.orgSlug },
  user: { id: String(principal.userId) },
});

/** GET /api/runs/auth/validate, POST /api/slug (the Python client's login check), GET /api/health. */
export function registerAuthRoutes(app: App, deps: Deps): void {
  app.get(
    '/api/health',
    { config: { public: true }, schema: { response: { 200: Type.Object({ status: Type.String() }) } } },
    () => ({
      status: 'ok',
    }),
  );

  app.get('/api/runs/auth/validate', { schema: { response: { 200: ValidateResponse } } }, (request) =>
    validAnswer(ctxOf(deps, request).principal),
  );

  app.post(
    '/api/slug',
    { schema: { response: { 200: Type.Object({ organization: Type.Object({ slug: Type.String() }) }) } } },
    (request) => ({ organization: { slug: ctxOf(deps, request).principal.orgSlug } }),
  );
}
