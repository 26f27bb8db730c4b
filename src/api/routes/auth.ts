import { Type } from '@sinclair/typebox';
import type { Deps } from '../../services/context.js';
import type { App } from '../app-types.js';
import { ctxOf } from '../auth-hook.js';

const ValidateResponse = Type.Object({
  valid: Type.Boolean(),
  organization: Type.Object({ id: Type.String(), slug: Type.String() }),
  user: Type.Object({ id: Type.String() }),
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

  app.get('/api/runs/auth/validate', { schema: { response: { 200: ValidateResponse } } }, (request) => {
    const { principal } = ctxOf(deps, request);
    return {
      valid: true,
      organization: { id: String(principal.orgId), slug: principal.orgSlug },
      user: { id: String(principal.userId) },
    };
  });

  app.post(
    '/api/slug',
    { schema: { response: { 200: Type.Object({ organization: Type.Object({ slug: Type.String() }) }) } } },
    (request) => ({ organization: { slug: ctxOf(deps, request).principal.orgSlug } }),
  );
}
