import type { Deps } from '../../services/context.js';
import { listProjects } from '../../services/projects.js';
import type { App } from '../app-types.js';
import { ctxOf } from '../hooks/auth-hook.js';
import { ProjectList } from '../schemas/projects.js';
import { projectView } from '../views/project-view.js';

/** GET /api/runs/projects: the organization's projects, newest first. */
export function registerProjectRoutes(app: App, deps: Deps): void {
  app.get(
    '/api/runs/projects',
    { config: { role: 'viewer' }, schema: { response: { 200: ProjectList } } },
    async (request) => {
      const projects = await listProjects(ctxOf(deps, request));
      return { projects: projects.map(projectView) };
    },
  );
}
