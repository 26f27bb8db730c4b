import { Type } from '@sinclair/typebox';
import { decodeRunId } from '../../domain/sqid.js';
import { badRequest } from '../../errors.js';
import type { Deps } from '../../services/context.js';
import { getRunDetails } from '../../services/run-details.js';
import { getProjectRun } from '../../services/run-lookup.js';
import type { App } from '../app-types.js';
import { ctxOf } from '../hooks/auth-hook.js';
import { RunId } from '../schema-helpers.js';
import { sendJsonStream } from '../sliced-json.js';
import { RunDetails, RunIdAnswer } from '../schemas/runs.js';
import { runDetailsPieces } from '../views/run-view.js';

const DETAILS_BOUND =
  'One answer holds at most STEPWISE_READ_MAX_ITEMS log names (default 100,000) and STEPWISE_READ_MAX_BYTES ' +
  'bytes (default 64 MB): a larger one is refused with 400 `RESULT_TOO_LARGE`.';

/** GET /api/runs/details/{runId}, .../by-display-id/{displayId} and GET /api/runs/{sqid}. */
export function registerRunDetailsRoutes(app: App, deps: Deps): void {
  const { publicUrl } = deps.config;

  app.get(
    '/api/runs/details/:runId',
    {
      config: { role: 'viewer' },
      schema: {
        description: `A run with its log names and JSON fields. ${DETAILS_BOUND}`,
        params: Type.Object({ runId: RunId }),
        response: { 200: RunDetails },
      },
    },
    async (request, reply) => {
      const ctx = ctxOf(deps, request);
      const details = await getRunDetails(ctx, { runId: request.params.runId });
      return sendJsonStream(reply, runDetailsPieces(details, publicUrl, ctx.principal.orgSlug));
    },
  );

  app.get(
    '/api/runs/details/by-display-id/:displayId',
    {
      config: { role: 'viewer' },
      schema: {
        description: `The details of a run by its display id, as GET /api/runs/details/{runId}. ${DETAILS_BOUND}`,
        params: Type.Object({ displayId: Type.String({ minLength: 1, maxLength: 64 }) }),
        querystring: Type.Object({ projectName: Type.Optional(Type.String({ minLength: 1 })) }),
        response: { 200: RunDetails },
      },
    },
    async (request, reply) => {
      const ctx = ctxOf(deps, request);
      const { displayId } = request.params;
      const details = await getRunDetails(ctx, { displayId, projectName: request.query.projectName });
      return sendJsonStream(reply, runDetailsPieces(details, publicUrl, ctx.principal.orgSlug));
    },
  );

  app.get(
    '/api/runs/:sqid',
    {
      config: { role: 'viewer' },
      schema: {
        params: Type.Object({ sqid: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 200: RunIdAnswer },
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
