import { Type } from '@sinclair/typebox';
import type { Deps } from '../../services/context.js';
import {
  createSavedView,
  deleteSavedView,
  getSavedView,
  listSavedViews,
  updateSavedView,
} from '../../services/saved-views.js';
import type { App } from '../app-types.js';
import { ctxOf } from '../hooks/auth-hook.js';
import { ProjectName } from '../schema-helpers.js';
import { SavedView, SavedViewList } from '../schemas/saved-views.js';
import { savedView, savedViewHead } from '../views/saved-view-view.js';

const ViewName = Type.String({ minLength: 1, maxLength: 200 });
const ViewState = Type.Unknown({ description: 'A JSON object, at most 256 KiB as JSON text.' });
const ViewParams = Type.Object({ viewId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });

/**
 * Saved views of a project's workspace (docs/api.md §12): GET /api/views lists a project's,
 * POST /api/views saves one, GET, PATCH and DELETE /api/views/{viewId} read, change and
 * delete one. Another organization's view is a 404.
 */
export function registerSavedViewRoutes(app: App, deps: Deps): void {
  app.get(
    '/api/views',
    {
      config: { role: 'viewer' },
      schema: {
        description: 'The saved views of a project, without their state: the default first, then by name.',
        querystring: Type.Object({ projectName: ProjectName }),
        response: { 200: SavedViewList },
      },
    },
    async (request) => {
      const { projectName } = request.query;
      const views = await listSavedViews(ctxOf(deps, request), projectName);
      return { projectName, views: views.map(savedViewHead) };
    },
  );

  app.post(
    '/api/views',
    {
      config: { role: 'member' },
      schema: {
        description:
          'Saves a view in an existing project. A project holds at most 500 views, with distinct names (a taken ' +
          'name is a 409). With `isDefault` it becomes the project’s default in place of the one before.',
        body: Type.Object({
          projectName: ProjectName,
          name: ViewName,
          state: ViewState,
          isDefault: Type.Optional(Type.Boolean()),
        }),
        response: { 200: SavedView },
      },
    },
    async (request) => savedView(await createSavedView(ctxOf(deps, request), request.body)),
  );

  app.get(
    '/api/views/:viewId',
    {
      config: { role: 'viewer' },
      schema: { description: 'One saved view with its state.', params: ViewParams, response: { 200: SavedView } },
    },
    async (request) => savedView(await getSavedView(ctxOf(deps, request), request.params.viewId)),
  );

  app.patch(
    '/api/views/:viewId',
    {
      config: { role: 'member' },
      schema: {
        description:
          'Changes a view’s name, state or default mark; fields left out stay. `isDefault: true` takes the mark ' +
          'from the project’s other default; `false` leaves the project without one.',
        params: ViewParams,
        body: Type.Object(
          { name: Type.Optional(ViewName), state: Type.Optional(ViewState), isDefault: Type.Optional(Type.Boolean()) },
          { minProperties: 1 },
        ),
        response: { 200: SavedView },
      },
    },
    async (request) => savedView(await updateSavedView(ctxOf(deps, request), request.params.viewId, request.body)),
  );

  app.delete(
    '/api/views/:viewId',
    {
      config: { role: 'member' },
      schema: { description: 'Deletes a saved view.', params: ViewParams, response: { 204: Type.Null() } },
    },
    async (request, reply) => {
      await deleteSavedView(ctxOf(deps, request), request.params.viewId);
      return reply.status(204).send(null);
    },
  );
}
