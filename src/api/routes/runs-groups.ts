import type { Deps } from '../../services/context.js';
import { groupMetrics } from '../../services/run-group-metrics.js';
import { groupRuns } from '../../services/run-groups.js';
import type { App } from '../app-types.js';
import { ctxOf } from '../hooks/auth-hook.js';
import { GroupMetrics, GroupMetricsQuery, GroupsQuery, RunGroups } from '../schemas/groups.js';
import { jsonPieces, sendJsonBuffer } from '../sliced-json.js';

/** GET /api/runs/groups and /api/runs/groups/metrics: runs grouped by key (docs/api.md §13). */
export function registerRunGroupRoutes(app: App, deps: Deps): void {
  app.get(
    '/api/runs/groups',
    {
      config: { role: 'viewer' },
      schema: {
        description:
          "A project's runs grouped by 1-3 comma-separated `groupBy` fields (`config.<dotted key>`, " +
          '`systemMetadata.<dotted key>`, `status`, `group` = the value of a `group:<name>` tag), after the ' +
          'narrowing of GET /api/runs/list (`filter`, `search`, `tags`, `status`). Groups are ordered by key ' +
          '(numbers, then strings, then booleans, null last); each lists at most 1,000 run ids (`runCount` is ' +
          "exact). `metrics=a,b` (up to 20) adds per group the n/mean/std/min/max of the runs' last finite values " +
          "(`summary`); `summaries=last,min,max,mean` (default `last`) chooses which of the runs' values are " +
          'summarised: their last values (`summary`), minimums (`summaryMin`), maximums (`summaryMax`), means (`summaryMean`). ' +
          '`configKeys=a,b.c` (up to 100 dotted config keys) adds `configValues`: per key the number of distinct ' +
          "values of the group's runs (a run without the key holds null) and the first 10 in key order.",
        querystring: GroupsQuery,
        response: { 200: RunGroups },
      },
    },
    async (request, reply) => {
      const answer = await groupRuns(ctxOf(deps, request), request.query);
      return sendJsonBuffer(reply, await jsonPieces<RunGroups>(answer));
    },
  );

  app.get(
    '/api/runs/groups/metrics',
    {
      config: { role: 'viewer' },
      schema: {
        description:
          'One metric of each group of GET /api/runs/groups, cut into at most `limit` (1-10,000, default 1,000) ' +
          'equal step buckets over `stepMin`..`stepMax`: per bucket the n/mean/std/stderr/min/max over the ' +
          "runs' means of their finite points in it (forks with their lineage's points), exact over every " +
          'stored point; `nonFinite` counts the non-finite points left out.',
        querystring: GroupMetricsQuery,
        response: { 200: GroupMetrics },
      },
    },
    async (request, reply) => {
      const answer = await groupMetrics(ctxOf(deps, request), request.query);
      return sendJsonBuffer(reply, await jsonPieces<GroupMetrics>(answer));
    },
  );
}
