import { Type } from '@sinclair/typebox';
import type { Deps } from '../../services/context.js';
import { searchRuns } from '../../services/run-search.js';
import type { App } from '../app-types.js';
import { ctxOf } from '../hooks/auth-hook.js';
import { JsonValue, Nullable, ProjectName, QueryInt } from '../schema-helpers.js';
import { runRowView } from '../views/run-view.js';

const Num = Nullable(Type.Number());

const RunRow = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  number: Type.Integer(),
  displayId: Type.String(),
  projectName: Type.String(),
  status: Type.String(),
  tags: Type.Array(Type.String()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  url: Type.String(),
  forkedFromRunId: Nullable(Type.Integer()),
  forkStep: Nullable(Type.Integer()),
  config: JsonValue,
  summary: Type.Optional(
    Type.Record(Type.String(), Type.Object({ last: Num, min: Num, max: Num, mean: Num, count: Type.Integer() })),
  ),
});

/** GET /api/runs/list: run search (see services/run-search.ts and README "Searching runs"). */
export function registerRunListRoutes(app: App, deps: Deps): void {
  app.get(
    '/api/runs/list',
    {
      schema: {
        querystring: Type.Object({
          projectName: ProjectName,
          search: Type.Optional(Type.String({ maxLength: 256 })),
          tags: Type.Optional(Type.String({ maxLength: 30_000 })),
          status: Type.Optional(Type.String({ maxLength: 256 })),
          limit: QueryInt(1, 200, 50),
          offset: QueryInt(0, 100_000, 0),
          sort: Type.Optional(Type.String({ maxLength: 1024 })),
          filter: Type.Optional(Type.String({ maxLength: 20_000 })),
          metrics: Type.Optional(Type.String({ maxLength: 20_000 })),
        }),
        response: { 200: Type.Object({ runs: Type.Array(RunRow), total: Type.Integer() }) },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const { rows, total } = await searchRuns(ctx, request.query);
      const { publicUrl } = deps.config;
      const runs = rows.map(({ run, summaries }) => runRowView(run, summaries, publicUrl, ctx.principal.orgSlug));
      return { runs, total };
    },
  );
}
