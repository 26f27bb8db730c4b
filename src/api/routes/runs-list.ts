import { Type } from '@sinclair/typebox';
import type { Deps } from '../../services/context.js';
import { listRuns } from '../../services/run-list.js';
import type { App } from '../app-types.js';
import { ctxOf } from '../hooks/auth-hook.js';
import { ProjectName, QueryInt, RunNarrowingQuery } from '../schema-helpers.js';
import { RunList } from '../schemas/runs.js';
import { jsonStream, objectMembers, sendJsonStream } from '../sliced-json.js';
import { runRowView } from '../views/run-view.js';

/** GET /api/runs/list: run search (see services/run-search.ts and docs/api.md §9). */
export function registerRunListRoutes(app: App, deps: Deps): void {
  app.get(
    '/api/runs/list',
    {
      config: { role: 'viewer' },
      schema: {
        description:
          "A page of a project's runs matching the search, sorted, each with its whole `config`, or with " +
          '`configKeys=lr,optimizer.beta1` only those keys of it (dotted paths of object keys, nested in the answer ' +
          'as in the config; missing keys are left out; `configKeys=` with no keys answers every set config as ' +
          '`{}`; an unset config is `null` either way). One answer holds at most STEPWISE_READ_MAX_BYTES bytes ' +
          '(default 64 MB): a larger one is refused with 400 `RESULT_TOO_LARGE`, whose error asks for a lower ' +
          '`limit` or for `configKeys`.',
        querystring: Type.Object({
          projectName: ProjectName,
          ...RunNarrowingQuery,
          limit: QueryInt(1, 200, 50),
          offset: QueryInt(0, 100_000, 0),
          sort: Type.Optional(Type.String({ maxLength: 1024 })),
          metrics: Type.Optional(Type.String({ maxLength: 20_000 })),
          configKeys: Type.Optional(Type.String({ maxLength: 10_000 })),
        }),
        response: { 200: RunList },
      },
    },
    async (request, reply) => {
      const ctx = ctxOf(deps, request);
      const { total, batches } = await listRuns(ctx, request.query);
      const rows = objectMembers(batches, (row) => runRowView(row, deps.config.publicUrl, ctx.principal.orgSlug));
      return sendJsonStream(reply, jsonStream<RunList>({ runs: rows, total }));
    },
  );
}
