import type { Project } from '../domain/types.js';
import type { Ctx } from './context.js';

/** The caller's organization's projects, newest first. */
export function listProjects(ctx: Ctx): Promise<Project[]> {
  return ctx.deps.metadata.listProjects(ctx.principal.orgId);
}
