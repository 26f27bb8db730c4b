import { Type } from '@sinclair/typebox';
import { CONSOLE_LOG_TYPES } from '../../domain/types.js';
import type { Deps } from '../../services/context.js';
import { createAlert, heartbeat, listAlerts, listData, listLogs } from '../../services/run-activity.js';
import type { App } from '../app-types.js';
import { alertView, dataLineView } from '../views/activity-view.js';
import { jsonTextPieces, sendJsonBuffer } from '../sliced-json.js';
import { ctxOf } from '../hooks/auth-hook.js';
import { JsonValue, Nullable, QueryInt, RunId, StringEnum } from '../schema-helpers.js';

const OptProject = Type.Optional(Type.String({ maxLength: 256 }));

/** A console line in the logs answer; the store writes each line's JSON text in this shape and key order. */
const LogLine = Type.Object({
  time: Type.String(),
  logType: Type.String(),
  lineNumber: Type.Integer(),
  message: Type.String(),
  step: Type.Integer(),
});

const DataLine = Type.Object({
  time: Type.String(),
  step: Type.Integer(),
  logName: Type.String(),
  dataType: Type.String(),
  data: Type.String(),
});

const AlertSchema = Type.Object(
  {
    timestamp: Type.Optional(Nullable(Type.Number())),
    level: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
    title: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))),
    body: Type.Optional(Nullable(Type.String({ maxLength: 100_000 }))),
  },
  { additionalProperties: true },
);

/** GET logs and data lines, POST trigger (heartbeat) and alert, GET alerts. */
export function registerRunActivityRoutes(app: App, deps: Deps): void {
  app.get(
    '/api/runs/logs',
    {
      schema: {
        querystring: Type.Object({
          runId: RunId,
          projectName: OptProject,
          logType: Type.Optional(StringEnum(CONSOLE_LOG_TYPES)),
          limit: QueryInt(1, 10_000, 1000),
          offset: QueryInt(0, Number.MAX_SAFE_INTEGER, 0),
        }),
        response: { 200: Type.Object({ logs: Type.Array(LogLine), total: Type.Integer() }) },
      },
    },
    async (request, reply) => {
      const { lines, total } = await listLogs(ctxOf(deps, request), request.query);
      return sendJsonBuffer(reply, await jsonTextPieces({}, 'logs', lines, { total }));
    },
  );

  app.get(
    '/api/runs/data',
    {
      schema: {
        querystring: Type.Object({
          runId: RunId,
          projectName: OptProject,
          logName: Type.Optional(Type.String({ maxLength: 1024 })),
          limit: QueryInt(1, 10_000, 1000),
          offset: QueryInt(0, Number.MAX_SAFE_INTEGER, 0),
        }),
        response: { 200: Type.Object({ data: Type.Array(DataLine), total: Type.Integer() }) },
      },
    },
    async (request) => {
      const { lines, total } = await listData(ctxOf(deps, request), request.query);
      return { data: lines.map(dataLineView), total };
    },
  );

  app.post(
    '/api/runs/trigger',
    { schema: { body: Type.Object({ runId: RunId }), response: { 200: Type.Object({ status: Type.String() }) } } },
    async (request) => ({ status: await heartbeat(ctxOf(deps, request), request.body.runId) }),
  );

  app.post(
    '/api/runs/alert',
    {
      schema: {
        body: Type.Object({ runId: RunId, alert: AlertSchema }),
        response: { 200: Type.Object({ status: Type.String() }) },
      },
    },
    async (request) => {
      await createAlert(ctxOf(deps, request), request.body.runId, request.body.alert);
      return { status: 'success' };
    },
  );

  app.get(
    '/api/runs/alerts',
    {
      schema: {
        querystring: Type.Object({ runId: RunId }),
        response: {
          200: Type.Object({
            runId: Type.Integer(),
            alerts: Type.Array(
              Type.Object({
                id: Type.Integer(),
                level: Nullable(Type.String()),
                title: Nullable(Type.String()),
                body: Nullable(Type.String()),
                time: Type.String(),
                payload: JsonValue,
              }),
            ),
          }),
        },
      },
    },
    async (request) => ({
      runId: request.query.runId,
      alerts: (await listAlerts(ctxOf(deps, request), request.query.runId)).map(alertView),
    }),
  );
}
