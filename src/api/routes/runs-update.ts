import { Type } from '@sinclair/typebox';
import { LOG_NAME_TYPES } from '../../domain/types.js';
import type { Deps } from '../../services/context.js';
import {
  addLogNames,
  getModelGraph,
  setModelGraph,
  updateConfig,
  updateNotes,
  updateTags,
} from '../../services/run-updates.js';
import type { App } from '../app-types.js';
import { ctxOf } from '../hooks/auth-hook.js';
import { Nullable, RunId, StringEnum, Tags } from '../schema-helpers.js';
import { Success } from '../schemas/common.js';
import { ModelGraph, ModelGraphAnswer } from '../schemas/runs.js';

const LogName = Type.String({ minLength: 1, maxLength: 1024 });
const ok = { 200: Success };

/** notes/update, config/update, tags/update, logName/add, modelGraph/create and GET modelGraph. */
export function registerRunUpdateRoutes(app: App, deps: Deps): void {
  app.post(
    '/api/runs/notes/update',
    {
      config: { role: 'member' },
      schema: {
        body: Type.Object({ runId: RunId, notes: Nullable(Type.String({ maxLength: 10_000 })) }),
        response: ok,
      },
    },
    async (request) => {
      await updateNotes(ctxOf(deps, request), request.body.runId, request.body.notes);
      return { success: true };
    },
  );

  app.post(
    '/api/runs/config/update',
    {
      config: { role: 'member' },
      schema: {
        // docs/api.md §3.6: a JSON-encoded string; the Python client's sync process sends an object.
        body: Type.Object({
          runId: RunId,
          config: Type.Union([Type.String(), Type.Record(Type.String(), Type.Unknown())]),
        }),
        response: ok,
      },
    },
    async (request) => {
      await updateConfig(ctxOf(deps, request), request.body.runId, request.body.config);
      return { success: true };
    },
  );

  app.post(
    '/api/runs/tags/update',
    { config: { role: 'member' }, schema: { body: Type.Object({ runId: RunId, tags: Tags }), response: ok } },
    async (request) => {
      await updateTags(ctxOf(deps, request), request.body.runId, request.body.tags);
      return { success: true };
    },
  );

  app.post(
    '/api/runs/logName/add',
    {
      config: { role: 'member' },
      schema: {
        body: Type.Object({
          runId: RunId,
          logName: Type.Array(LogName, { maxItems: 10_000 }),
          logType: StringEnum(LOG_NAME_TYPES),
        }),
        response: ok,
      },
    },
    async (request) => {
      const { runId, logName, logType } = request.body;
      await addLogNames(ctxOf(deps, request), runId, logName, logType);
      return { success: true };
    },
  );

  app.post(
    '/api/runs/modelGraph/create',
    { config: { role: 'member' }, schema: { body: Type.Object({ runId: RunId, graph: ModelGraph }), response: ok } },
    async (request) => {
      await setModelGraph(ctxOf(deps, request), request.body.runId, request.body.graph);
      return { success: true };
    },
  );

  app.get(
    '/api/runs/modelGraph',
    {
      config: { role: 'viewer' },
      schema: {
        querystring: Type.Object({ runId: RunId }),
        response: { 200: ModelGraphAnswer },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const graph = await getModelGraph(ctx, request.query.runId);
      return { runId: request.query.runId, graph: graph as ModelGraph };
    },
  );
}
