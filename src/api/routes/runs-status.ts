import { Type } from '@sinclair/typebox';
import { RUN_STATUSES } from '../../domain/types.js';
import type { Deps } from '../../services/context.js';
import { statusHistory, updateRunStatus } from '../../services/run-status.js';
import type { App } from '../app-types.js';
import { ctxOf } from '../hooks/auth-hook.js';
import { JsonValue, Nullable, Opt, RunId, StringEnum, Success } from '../schema-helpers.js';
import { statusEventView } from '../views/status-event-view.js';

const StatusBody = Type.Object({
  runId: RunId,
  status: StringEnum(RUN_STATUSES),
  statusMetadata: Opt(Type.String()),
  loggerSettings: Opt(Type.String()),
});

const EventSchema = Type.Object({
  id: Type.Integer(),
  runId: Type.Integer(),
  fromStatus: Nullable(Type.String()),
  toStatus: Type.String(),
  source: Type.String(),
  metadata: JsonValue,
  createdAt: Type.String(),
});

/** POST /api/runs/status/update and GET /api/runs/status/history. */
export function registerRunStatusRoutes(app: App, deps: Deps): void {
  app.post('/api/runs/status/update', { schema: { body: StatusBody, response: { 200: Success } } }, async (request) => {
    await updateRunStatus(ctxOf(deps, request), request.body);
    return { success: true };
  });

  app.get(
    '/api/runs/status/history',
    {
      schema: {
        querystring: Type.Object({ runId: RunId }),
        response: { 200: Type.Object({ runId: Type.Integer(), events: Type.Array(EventSchema) }) },
      },
    },
    async (request) => {
      const events = await statusHistory(ctxOf(deps, request), request.query.runId);
      return { runId: request.query.runId, events: events.map(statusEventView) };
    },
  );
}
