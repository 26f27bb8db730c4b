/**
 * GET /api/runs/details: a run with its log names and its JSON fields as stored JSON text,
 * refused before any large field is read when the answer would pass the read bounds
 * (config.readMaxBytes, and config.readMaxItems log names).
 */
import { parseDisplayId } from '../domain/display-id.js';
import type { LogNameEntry, RunHead, RunJsonTexts } from '../domain/types.js';
import { badRequest, notFound, resultTooLarge } from '../errors.js';
import type { Ctx } from './context.js';

/** The run by id, or by display id (any case) in an optional project. */
export type DetailsRef = { runId: number } | { displayId: string; projectName?: string };

export interface RunDetails {
  run: RunHead;
  /** The JSON fields as stored JSON texts (null when unset). */
  json: RunJsonTexts;
  /** Sorted by name. */
  logNames: LogNameEntry[];
}

/** Bytes of the answer besides the fields' texts (keys, times, url). */
const DETAILS_BYTES = 2048;
/** Bytes of one log name's entry besides its texts (`{"logName":"","logType":"","logGroup":""},`). */
const LOG_NAME_BYTES = 48;

async function findHead(ctx: Ctx, ref: DetailsRef): Promise<RunHead> {
  const { orgId } = ctx.principal;
  if ('runId' in ref) {
    const run = await ctx.deps.metadata.findRunHead(orgId, { runId: ref.runId });
    if (!run) throw notFound(`run ${ref.runId} not found`);
    return run;
  }
  const parsed = parseDisplayId(ref.displayId);
  if (!parsed) throw badRequest(`displayId must look like PREFIX-NUMBER, got ${JSON.stringify(ref.displayId)}`);
  const run = await ctx.deps.metadata.findRunHead(orgId, parsed);
  if (!run || (ref.projectName !== undefined && run.projectName !== ref.projectName)) {
    throw notFound(`run ${ref.displayId} not found`);
  }
  return run;
}

/**
 * The run's details. Throws NOT_FOUND, BAD_REQUEST for a malformed display id, and
 * RESULT_TOO_LARGE when the run has more log names than config.readMaxItems or the answer
 * would pass config.readMaxBytes.
 */
export async function getRunDetails(ctx: Ctx, ref: DetailsRef): Promise<RunDetails> {
  const run = await findHead(ctx, ref);
  const { metadata, config } = ctx.deps;
  const names = await metadata.logNameStats(run.id);
  const bytes =
    DETAILS_BYTES + run.jsonBytes + Buffer.byteLength(run.notes ?? '') + names.bytes + names.count * LOG_NAME_BYTES;
  const mb = (n: number) => (n / (1024 * 1024)).toFixed(1);
  if (names.count > config.readMaxItems || bytes > config.readMaxBytes) {
    throw resultTooLarge(
      `the details of run ${run.id} would answer ${names.count} log names and about ${mb(bytes)} MB, more than ` +
        `one read may answer (${config.readMaxItems} items, STEPWISE_READ_MAX_ITEMS; ${mb(config.readMaxBytes)} MB, ` +
        `STEPWISE_READ_MAX_BYTES); read its metric names with GET /api/runs/metric-names and some of its config ` +
        `with GET /api/runs/list?configKeys=…`,
    );
  }
  const json = await metadata.findRunJsonTexts(ctx.principal.orgId, run.id);
  if (!json) throw notFound(`run ${run.id} not found`);
  return { run, json, logNames: await metadata.listLogNames(run.id) };
}
