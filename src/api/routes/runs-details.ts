import { Type } from '@sinclair/typebox';
import { decodeRunId } from '../../domain/sqid.js';
import { badRequest } from '../../errors.js';
import type { Deps } from '../../services/context.js';
import { getProjectRun, getRunByDisplayId, listRunLogNames } from '../../services/run-lookup.js';
import type { App } from '../app-types.js';
import { ctxOf } from '../hooks/auth-hook.js';
import { RunId } from '../schema-helpers.js';
import { RunDetailsSchema, runDetailsView } from '../views/run-view.js';

/** GET /api/runs/details/{runId}, .../by-display-id/{displayId} and GET /api/runs/{sqid}. */
export function registerRunDetailsRoutes(app: App, deps: Deps): void {
  const { publicUrl } = deps.config;

  app.get(
    '/api/runs/details/:runId',
    { schema: { params: Type.Object({ runId: RunId }), response: { 200: RunDetailsSchema } } },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const run = await getProjectRun(ctx, request.params.runId, undefined);
      return runDetailsView(run, await listRunLogNames(ctx, run), publicUrl, ctx.principal.orgSlug);
    },
  );

  app.get(
    '/api/runs/details/by-display-id/:displayId',
    {
      schema: {
        params: Type.Object({ displayId: Type.String({ minLength: 1, maxLength: 64 }) }),
        querystring: Type.Object({ projectName: Type.Optional(Type.String({ minLength: 1 })) }),
        response: { 200: RunDetailsSchema },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const run = await getRunByDisplayId(ctx, request.params.displayId, request.query.projectName);
      return runDetailsView(run, await listRunLogNames(ctx, run), publicUrl, ctx.principal.orgSlug);
    },
  );

  app.get(
    '/api/runs/:sqid',
    {
      schema: {
        params: Type.Object({ sqid: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 200: Type.Object({ runId: Type.Integer() }) },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const runId = decodeRunId(request.params.sqid);
      if (runId === undefined) throw badRequest(`${JSON.stringify(request.params.sqid)} is not a valid run SQID`);
      const run = await getProjectRun(ctx, runId, undefined);
      return { runId: run.id };
    },
  );
}
