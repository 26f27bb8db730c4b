/**
 * GET /api/runs/list: a page of run search with each run's config as stored JSON text, the
 * whole config or only `configKeys`, and a byte bound (config.readMaxBytes) on the answer.
 * Whole configs are measured by the database before any is read, then read a batch at a
 * time while the answer is sent; picked keys are read (by the database) before answering,
 * counted as they arrive.
 */
import { parseConfigKeys } from '../domain/config-keys.js';
import { checkAnswerBytes, readTooLarge, rowBytes, withConfigTexts } from './config-texts.js';
import type { Ctx } from './context.js';
import { type RunSearchParams, type RunSearchRow, searchRuns } from './run-search.js';

export interface RunListParams extends RunSearchParams {
  /** Comma-separated dotted key paths of config to answer (domain/config-keys.ts); undefined = the whole config. */
  configKeys?: string;
}

/** A row of the answer: the run, its summaries, and its config (or picked keys) as JSON text; null when unset. */
export interface ListedRun extends RunSearchRow {
  config: string | null;
}

/** What to ask for instead of a list too large to answer. */
const LIST_ADVICE =
  'ask for fewer runs with a lower limit, or for only some config keys with configKeys ' +
  '(e.g. configKeys=lr,batch_size; configKeys= with no keys leaves every config empty)';

/**
 * A page of run search (see searchRuns) with each run's config text in batches, in page order,
 * and the total. Throws what searchRuns throws, BAD_REQUEST for bad configKeys, and
 * RESULT_TOO_LARGE when the answer would pass config.readMaxBytes (before anything is sent).
 */
export async function listRuns(
  ctx: Ctx,
  p: RunListParams,
): Promise<{ total: number; batches: AsyncIterable<ListedRun[]> | Iterable<ListedRun[]> }> {
  const paths = p.configKeys === undefined ? undefined : parseConfigKeys(p.configKeys);
  const { rows, total } = await searchRuns(ctx, p);
  const what = `these ${rows.length} runs`;
  if (paths === undefined) {
    checkAnswerBytes(ctx, rows, what, LIST_ADVICE);
    return { total, batches: withConfigTexts(ctx, rows) };
  }
  let bytes = rows.reduce((n, r) => n + rowBytes(r), 0);
  const loaded: ListedRun[][] = [];
  for await (const batch of withConfigTexts(ctx, rows, paths)) {
    for (const row of batch) bytes += row.config === null ? 4 : Buffer.byteLength(row.config);
    if (bytes > ctx.deps.config.readMaxBytes) throw readTooLarge(ctx, what, bytes, true, LIST_ADVICE);
    loaded.push(batch);
  }
  return { total, batches: loaded };
}
