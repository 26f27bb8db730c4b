import { Type, type Static } from '@sinclair/typebox';

/** One project of GET /api/runs/projects; `updatedAt` is its last activity: a run created, updated or heard from. */
export const Project = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  runCount: Type.Integer(),
});
export type Project = Static<typeof Project>;

/** The answer of GET /api/runs/projects: newest first. */
export const ProjectList = Type.Object({ projects: Type.Array(Project) });
export type ProjectList = Static<typeof ProjectList>;
