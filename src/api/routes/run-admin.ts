import { Type } from '@sinclair/typebox';
import type { Deps } from '../../services/context.js';
import {
  findRenamedProject,
  getProjectSettings,
  renameProject,
  renameRun,
  setProjectRetention,
  stopRun,
} from '../../services/run-admin.js';
import { purgeRuns } from '../../services/run-purge.js';
import { deleteProject, deleteRuns, listTrash, restoreRuns } from '../../services/run-trash.js';
import type { App } from '../app-types.js';
import { ctxOf } from '../hooks/auth-hook.js';
import { ProjectName, QueryInt, RunId } from '../schema-helpers.js';
import { Success } from '../schemas/common.js';
import {
  ProjectRenameBody,
  ProjectSettings,
  RenamedProject,
  RetentionDays,
  RunCount,
  RunIdsBody,
  TrashList,
} from '../schemas/run-admin.js';
import { trashedRunView } from '../views/trash-view.js';

const ok = { 200: Success };
const counted = { 200: RunCount };

/** Deleting (trash), restoring, purging, renaming and stopping runs; project delete, rename, settings (docs/api.md §14). */
export function registerRunAdminRoutes(app: App, deps: Deps): void {
  app.post(
    '/api/runs/delete',
    {
      config: { role: 'member' },
      schema: {
        description:
          'Moves 1 to 1,000 runs to the trash: every read leaves them out until restored; purged after ' +
          'STEPWISE_TRASH_TTL. An unknown or foreign id is a 404 that changes nothing.',
        body: RunIdsBody,
        response: counted,
      },
    },
    async (request) => ({ success: true, count: await deleteRuns(ctxOf(deps, request), request.body.runIds) }),
  );

  app.post(
    '/api/runs/restore',
    {
      config: { role: 'member' },
      schema: {
        description: 'Brings trashed runs back unchanged; an id not in the trash is a 404 that changes nothing.',
        body: RunIdsBody,
        response: counted,
      },
    },
    async (request) => ({ success: true, count: await restoreRuns(ctxOf(deps, request), request.body.runIds) }),
  );

  app.post(
    '/api/runs/purge',
    {
      config: { role: 'member' },
      schema: {
        description:
          'Purges trashed runs for good now: points, lines, files and their bytes; a fork keeps reading what it ' +
          'inherits. An id not in the trash is a 404 that changes nothing.',
        body: RunIdsBody,
        response: counted,
      },
    },
    async (request) => ({ success: true, count: await purgeRuns(ctxOf(deps, request), request.body.runIds) }),
  );

  app.get(
    '/api/runs/trash',
    {
      config: { role: 'viewer' },
      schema: {
        description: "A page of the project's trashed runs, the latest trashed first.",
        querystring: Type.Object({
          projectName: ProjectName,
          limit: QueryInt(1, 1000, 100),
          offset: QueryInt(0, 100_000, 0),
        }),
        response: { 200: TrashList },
      },
    },
    async (request) => {
      const { projectName, limit, offset } = request.query;
      const runs = await listTrash(ctxOf(deps, request), projectName, limit, offset);
      return { runs: runs.map(trashedRunView) };
    },
  );

  app.post(
    '/api/runs/name/update',
    {
      config: { role: 'member' },
      schema: {
        body: Type.Object({ runId: RunId, name: Type.String({ minLength: 1, maxLength: 1024 }) }),
        response: ok,
      },
    },
    async (request) => {
      await renameRun(ctxOf(deps, request), request.body.runId, request.body.name);
      return { success: true };
    },
  );

  app.post(
    '/api/runs/stop',
    {
      config: { role: 'member' },
      schema: {
        description:
          'Stops a RUNNING run: CANCELLED with source `user`, the key and user in the event metadata; the client ' +
          'exits on its next heartbeat. A run that is not RUNNING is a 409.',
        body: Type.Object({ runId: RunId }),
        response: ok,
      },
    },
    async (request) => {
      await stopRun(ctxOf(deps, request), request.body.runId);
      return { success: true };
    },
  );

  app.post(
    '/api/runs/projects/delete',
    {
      config: { role: 'admin' },
      schema: {
        description: 'Moves a project and all its runs to the trash (restorable like any trashed run).',
        body: Type.Object({ projectName: ProjectName }),
        response: counted,
      },
    },
    async (request) => ({ success: true, count: await deleteProject(ctxOf(deps, request), request.body.projectName) }),
  );

  app.post(
    '/api/runs/projects/rename',
    {
      config: { role: 'admin' },
      schema: {
        description: 'Renames a project; run ids, display ids and links keep working (old names redirect).',
        body: ProjectRenameBody,
        response: ok,
      },
    },
    async (request) => {
      await renameProject(ctxOf(deps, request), request.body.projectName, request.body.newName);
      return { success: true };
    },
  );

  app.get(
    '/api/runs/projects/renamed',
    {
      config: { role: 'viewer' },
      schema: {
        description: 'The current name of the live project that had this name before a rename, or null.',
        querystring: Type.Object({ projectName: ProjectName }),
        response: { 200: RenamedProject },
      },
    },
    async (request) => ({
      projectName: (await findRenamedProject(ctxOf(deps, request), request.query.projectName)) ?? null,
    }),
  );

  app.get(
    '/api/runs/projects/settings',
    {
      config: { role: 'viewer' },
      schema: { querystring: Type.Object({ projectName: ProjectName }), response: { 200: ProjectSettings } },
    },
    async (request) => getProjectSettings(ctxOf(deps, request), request.query.projectName),
  );

  app.post(
    '/api/runs/projects/settings/update',
    {
      config: { role: 'admin' },
      schema: {
        description:
          'Sets the project retention: finished runs whose status changed more than `retentionDays` ago go to ' +
          'the trash by themselves (RUNNING runs never); null turns it off.',
        body: Type.Object({ projectName: ProjectName, retentionDays: RetentionDays }),
        response: ok,
      },
    },
    async (request) => {
      await setProjectRetention(ctxOf(deps, request), request.body.projectName, request.body.retentionDays);
      return { success: true };
    },
  );
}
