import { Type } from '@sinclair/typebox';
import { CONSOLE_LOG_TYPES } from '../../domain/types.js';
import type { Deps } from '../../services/context.js';
import { createAlert, heartbeat, listAlerts, listData, listLogs } from '../../services/run-activity.js';
import type { App } from '../app-types.js';
import { alertView, dataLineView } from '../views/activity-view.js';
import { jsonPieces, sendJsonBuffer, textMembers } from '../sliced-json.js';
import { ctxOf } from '../hooks/auth-hook.js';
import { Nullable, QueryInt, RunId, StringEnum } from '../schema-helpers.js';
import { StatusAnswer } from '../schemas/common.js';
import { AlertList, DataPage, type LogLine, LogPage } from '../schemas/logs.js';

const OptProject = Type.Optional(Type.String({ maxLength: 256 }));

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
      config: { role: 'viewer' },
      schema: {
        querystring: Type.Object({
          runId: RunId,
          projectName: OptProject,
          logType: Type.Optional(StringEnum(CONSOLE_LOG_TYPES)),
          limit: QueryInt(1, 10_000, 1000),
          offset: QueryInt(0, Number.MAX_SAFE_INTEGER, 0),
        }),
        response: { 200: LogPage },
      },
    },
    async (request, reply) => {
      const { lines, total } = await listLogs(ctxOf(deps, request), request.query);
      // The store writes each line's JSON text in LogLine's shape and key order.
      return sendJsonBuffer(reply, await jsonPieces<LogPage>({ logs: textMembers<LogLine>(lines), total }));
    },
  );

  app.get(
    '/api/runs/data',
    {
      config: { role: 'viewer' },
      schema: {
        querystring: Type.Object({
          runId: RunId,
          projectName: OptProject,
          logName: Type.Optional(Type.String({ maxLength: 1024 })),
          limit: QueryInt(1, 10_000, 1000),
          offset: QueryInt(0, Number.MAX_SAFE_INTEGER, 0),
        }),
        response: { 200: DataPage },
      },
    },
    async (request) => {
      const { lines, total } = await listData(ctxOf(deps, request), request.query);
      return { data: lines.map(dataLineView), total };
    },
  );

  app.post(
    '/api/runs/trigger',
    { config: { role: 'member' }, schema: { body: Type.Object({ runId: RunId }), response: { 200: StatusAnswer } } },
    async (request) => ({ status: await heartbeat(ctxOf(deps, request), request.body.runId) }),
  );

  app.post(
    '/api/runs/alert',
    {
      config: { role: 'member' },
      schema: {
        body: Type.Object({ runId: RunId, alert: AlertSchema }),
        response: { 200: StatusAnswer },
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
      config: { role: 'viewer' },
      schema: {
        querystring: Type.Object({ runId: RunId }),
        response: { 200: AlertList },
      },
    },
    async (request) => ({
      runId: request.query.runId,
      alerts: (await listAlerts(ctxOf(deps, request), request.query.runId)).map(alertView),
    }),
  );
}
