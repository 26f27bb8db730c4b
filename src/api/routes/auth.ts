import type { Principal } from '../../domain/types.js';
import type { Deps } from '../../services/context.js';
import type { App } from '../app-types.js';
import { ctxOf } from '../hooks/auth-hook.js';
import { StatusAnswer } from '../schemas/common.js';
import { Session, SlugAnswer } from '../schemas/session.js';

/** The Session answer of a principal (ids as strings). */
export const validAnswer = (principal: Principal): Session => ({
  valid: true,
  organization: { id: String(principal.orgId), slug: principal.orgSlug },
  user: { id: String(principal.userId) },
});

/** GET /api/runs/auth/validate, POST /api/slug (the Python client's login check), GET /api/health. */
export function registerAuthRoutes(app: App, deps: Deps): void {
  app.get('/api/health', { config: { public: true }, schema: { response: { 200: StatusAnswer } } }, () => ({
    status: 'ok',
  }));

  app.get(
    '/api/runs/auth/validate',
    { config: { role: 'viewer', oauthResource: true }, schema: { response: { 200: Session } } },
    (request) => validAnswer(ctxOf(deps, request).principal),
  );

  app.post('/api/slug', { config: { role: 'viewer' }, schema: { response: { 200: SlugAnswer } } }, (request) => ({
    organization: { slug: ctxOf(deps, request).principal.orgSlug },
  }));
}
