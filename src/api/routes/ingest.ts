import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../services/context.js';
import { watchMetrics } from '../../events/alert-rules.js';
import type { RunTarget } from '../../domain/types.js';
import type { Ctx } from '../../services/context.js';
import { ingestData, ingestLogs, ingestMetrics, ingestRun } from '../../services/ingest.js';
import type { App } from '../app-types.js';
import { ctxOf } from '../hooks/auth-hook.js';
import { Accepted } from '../schemas/common.js';
import { utf8Text } from '../body-text.js';
import { Admission, type AdmissionLimits, installAdmission } from '../hooks/ingest-admission.js';

/** Content types the ingest routes accept; each body is NDJSON text. */
export const NDJSON_TYPES = ['application/x-ndjson', 'application/jsonl', 'application/json', 'text/plain'];

const headerOf = (request: FastifyRequest, name: string): string | undefined => {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

const admissions = new WeakMap<Deps, Admission>();

const limitsOf = (deps: Deps): AdmissionLimits => ({
  maxInFlight: deps.config.ingestMaxInFlight,
  maxInFlightBytes: deps.config.ingestMaxInFlightBytes,
  tenantMaxInFlight: deps.config.ingestOrgMaxInFlight,
  tenantMaxInFlightBytes: deps.config.ingestOrgMaxInFlightBytes,
});

/** The one admission counter of a server process (ingest and uploads; shared by the apps of --pluto-ports). */
export function admissionOf(deps: Deps): Admission {
  let admission = admissions.get(deps);
  if (!admission) admissions.set(deps, (admission = new Admission(limitsOf(deps))));
  return admission;
}

/**
 * POST /ingest/metrics, /ingest/logs, /ingest/data: NDJSON bodies for the run named by
 * X-Run-Id. Each request is one transaction, answered after it is durable. Bodies must be
 * UTF-8; admission control answers 503 with Retry-After when the write path is saturated.
 */
export async function registerIngestRoutes(app: App, deps: Deps): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      NDJSON_TYPES,
      { parseAs: 'buffer', bodyLimit: deps.config.ingestBodyLimit },
      (_r, body, done) => {
        try {
          done(null, utf8Text(body as Buffer));
        } catch (err) {
          done(err as Error);
        }
      },
    );
    installAdmission(scope, admissionOf(deps), deps.config.ingestBodyLimit);
    // Metric batches are checked against the project's alert rules (a rule's failure is logged, never the write's).
    const metrics = (ctx: Ctx, run: RunTarget, body: string) =>
      ingestMetrics(
        ctx,
        run,
        body,
        (points) => watchMetrics(ctx, run, points),
        (err) => scope.log.error({ err }, 'alert rule check failed'),
      );
    const handlers = { metrics, logs: ingestLogs, data: ingestData } as const;
    for (const [kind, handler] of Object.entries(handlers)) {
      scope.post(
        `/ingest/${kind}`,
        { config: { role: 'member' }, schema: { response: { 200: Accepted } } },
        async (request) => {
          const ctx = ctxOf(deps, request);
          const run = await ingestRun(ctx, {
            runId: headerOf(request, 'x-run-id'),
            projectName: headerOf(request, 'x-project-name'),
          });
          const body = typeof request.body === 'string' ? request.body : '';
          const count = await handler(ctx, run, body);
          return { success: true, count };
        },
      );
    }
  });
}
