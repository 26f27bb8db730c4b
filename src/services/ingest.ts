import { parseRunIdText } from '../domain/integer-text.js';
import { logGroupOf } from '../domain/log-group.js';
import { logNameTypeOfData } from '../domain/log-name-type.js';
import { packLines, type PackedPoints } from '../domain/packed-points.js';
import type { LogNameType, RunTarget } from '../domain/types.js';
import { badRequest } from '../errors.js';
import { parseDataLines, parseLogLines, parseMetricLines } from '../ingest/lines.js';
import type { Ctx } from './context.js';
import { recordLiveness } from './liveness.js';
import { LogNameCache } from './log-name-cache.js';

/** Ingest headers as the Python client sends them. */
export interface IngestHeaders {
  runId: string | undefined;
  projectName: string | undefined;
}

/**
 * The run an ingest request writes to, its client's liveness recorded (a run marked stale
 * is resumed). X-Run-Id must be decimal digits, no leading zeros (the client sometimes sends `None`): 400;
 * unknown or foreign run: 404; X-Project-Name, when sent, must be the run's project: 400.
 * HTTP drops white space around header values, so the project is compared without it
 * (a project stored as "p " before such names were refused still takes ingest as "p").
 */
export async function ingestRun(ctx: Ctx, h: IngestHeaders): Promise<RunTarget> {
  const runId = h.runId === undefined ? undefined : parseRunIdText(h.runId);
  if (runId === undefined) {
    throw badRequest(
      `X-Run-Id must be an integer run id in decimal digits without leading zeros; got ${h.runId === undefined ? 'nothing' : JSON.stringify(h.runId)}`,
    );
  }
  const run = await ctx.deps.metadata.getRunTarget(ctx.principal.orgId, runId);
  const project = h.projectName?.trim();
  if (project && project !== run.projectName.trim()) {
    throw badRequest(`X-Project-Name ${JSON.stringify(project)} is not the project of run ${run.id}`);
  }
  const status = await recordLiveness(ctx, run);
  return status === run.status ? run : { ...run, status };
}

/** Per store: which log names each run has registered, so ingest writes them once. */
const caches = new WeakMap<object, LogNameCache>();

async function register(ctx: Ctx, run: RunTarget, names: Iterable<[string, LogNameType]>): Promise<void> {
  let registered = caches.get(ctx.deps.metadata);
  if (!registered) caches.set(ctx.deps.metadata, (registered = new LogNameCache(50_000)));
  const fresh = [...names].filter(([name]) => !registered.has(run.id, name));
  if (fresh.length === 0) return;
  const entries = fresh.map(([logName, logType]) => ({ logName, logType, logGroup: logGroupOf(logName) }));
  await ctx.deps.metadata.addLogNames(ctx.principal.orgId, run.id, entries, Date.now(), ctx.deps.config.runMaxLogNames);
  for (const [name] of fresh) registered.add(run.id, name);
}

/** Looks at a batch before it is stored; returns what to do once it is stored, if anything. */
export type MetricWatch = (points: PackedPoints) => Promise<(() => Promise<void>) | undefined>;

/**
 * Stores one NDJSON metrics body atomically; returns the number of points stored. Throws
 * BAD_REQUEST. `watch` sees the points first (alert rules); what it returns runs after the
 * write; neither's failure fails the write (it goes to `onWatchError`).
 */
export async function ingestMetrics(
  ctx: Ctx,
  run: RunTarget,
  body: string,
  watch?: MetricWatch,
  onWatchError?: (err: unknown) => void,
): Promise<number> {
  const points = packLines(parseMetricLines(body));
  const after = watch
    ? await watch(points).catch((err: unknown) => {
        onWatchError?.(err);
        return undefined;
      })
    : undefined;
  const count = points.cols.length / 4;
  await register(
    ctx,
    run,
    points.names.map((name) => [name, 'METRIC']),
  );
  await ctx.deps.series.appendMetrics(run, points);
  if (after) await after().catch(onWatchError);
  return count;
}

/** Stores one NDJSON console-log body atomically; returns the number of lines. Throws BAD_REQUEST. */
export async function ingestLogs(ctx: Ctx, run: RunTarget, body: string): Promise<number> {
  const lines = parseLogLines(body).map((l) => ({
    time: l.time,
    logType: l.logType,
    lineNumber: l.logLineNumber,
    message: l.message,
    step: l.step,
  }));
  await ctx.deps.series.appendConsole(run.id, lines);
  return lines.length;
}

/** Stores one NDJSON data body (histograms, tables, text) atomically; returns the number of lines. */
export async function ingestData(ctx: Ctx, run: RunTarget, body: string): Promise<number> {
  const lines = parseDataLines(body);
  const names = new Map<string, LogNameType>();
  for (const l of lines) names.set(l.logName, logNameTypeOfData(l.dataType));
  await register(ctx, run, names);
  await ctx.deps.series.appendData(
    run.id,
    lines.map((l) => ({ time: l.time, step: l.step, logName: l.logName, dataType: l.dataType, data: l.data })),
  );
  return lines.length;
}
