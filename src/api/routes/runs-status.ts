import { Type } from '@sinclair/typebox';
import { RUN_STATUSES } from '../../domain/types.js';
import type { Deps } from '../../services/context.js';
import { statusHistory, updateRunStatus } from '../../services/run-status.js';
import type { App } from '../app-types.js';
import { ctxOf } from '../hooks/auth-hook.js';
import { Opt, RunId, StringEnum } from '../schema-helpers.js';
import { Success } from '../schemas/common.js';
import { StatusHistory } from '../schemas/status-events.js';
import { statusEventView } from '../views/status-event-view.js';

const StatusBody = Type.Object({
  runId: RunId,
  status: StringEnum(RUN_STATUSES),
  statusMetadata: Opt(Type.String()),
  loggerSettings: Opt(Type.String()),
});

/** POST /api/runs/status/update and GET /api/runs/status/history. */
export function registerRunStatusRoutes(app: App, deps: Deps): void {
  app.post(
    '/api/runs/status/update',
    { config: { role: 'member' }, schema: { body: StatusBody, response: { 200: Success } } },
    async (request) => {
      await updateRunStatus(ctxOf(deps, request), request.body);
      return { success: true };
    },
  );

  app.get(
    '/api/runs/status/history',
    {
      config: { role: 'viewer' },
      schema: {
        querystring: Type.Object({ runId: RunId }),
        response: { 200: StatusHistory },
      },
    },
    async (request) => {
      const events = await statusHistory(ctxOf(deps, request), request.query.runId);
      return { runId: request.query.runId, events: events.map(statusEventView) };
    },
  );
}
