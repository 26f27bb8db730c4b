import { Type } from '@sinclair/typebox';
import type { Deps } from '../../services/context.js';
import { listProjects } from '../../services/projects.js';
import type { App } from '../app-types.js';
import { ctxOf } from '../hooks/auth-hook.js';
import { projectView } from '../views/project-view.js';

const ProjectSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  runCount: Type.Integer(),
});

/** GET /api/runs/projects: the organization's projects, newest first. */
export function registerProjectRoutes(app: App, deps: Deps): void {
  app.get(
    '/api/runs/projects',
    { schema: { response: { 200: Type.Object({ projects: Type.Array(ProjectSchema) }) } } },
    async (request) => {
      const projects = await listProjects(ctxOf(deps, request));
      return { projects: projects.map(projectView) };
    },
  );
}
