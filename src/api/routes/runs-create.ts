import { Type } from '@sinclair/typebox';
import { createRun } from '../../services/run-create.js';
import { resumeRun } from '../../services/run-status.js';
import type { Deps } from '../../services/context.js';
import type { App } from '../app-types.js';
import { ctxOf } from '../hooks/auth-hook.js';
import { Opt, ProjectName, RunId, Step, Tags } from '../schema-helpers.js';
import { RunRef } from '../schemas/runs.js';
import { runRefView } from '../views/run-view.js';

const EpochMs = Type.Integer({ minimum: 0, maximum: 8.64e15 });

const CreateBody = Type.Object({
  runName: Type.String({ minLength: 1, maxLength: 1024 }),
  projectName: ProjectName,
  externalId: Opt(Type.String({ minLength: 1, maxLength: 1024 })),
  tags: Opt(Tags),
  loggerSettings: Opt(Type.String()),
  systemMetadata: Opt(Type.String()),
  config: Opt(Type.String()),
  createdAt: Opt(EpochMs),
  updatedAt: Opt(EpochMs),
  forkRunId: Opt(RunId),
  forkStep: Opt(Step),
  inheritConfig: Opt(Type.Boolean()),
  inheritTags: Opt(Type.Boolean()),
});

const ResumeBody = Type.Object({
  runId: Opt(RunId),
  displayId: Opt(Type.String({ minLength: 1, maxLength: 64 })),
  externalId: Opt(Type.String({ minLength: 1, maxLength: 1024 })),
  projectName: Opt(ProjectName),
});

/** POST /api/runs/create and POST /api/runs/resume. */
export function registerRunCreateRoutes(app: App, deps: Deps): void {
  const publicUrl = deps.config.publicUrl;
  app.post(
    '/api/runs/create',
    { config: { role: 'member' }, schema: { body: CreateBody, response: { 200: RunRef } } },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const { run, resumed } = await createRun(ctx, request.body);
      return runRefView(run, resumed, publicUrl, ctx.principal.orgSlug);
    },
  );

  app.post(
    '/api/runs/resume',
    { config: { role: 'member' }, schema: { body: ResumeBody, response: { 200: RunRef } } },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const run = await resumeRun(ctx, request.body);
      return runRefView(run, true, publicUrl, ctx.principal.orgSlug);
    },
  );
}
