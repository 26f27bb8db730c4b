/**
 * GET /api/runs/list: a page of run search with each run's config as stored JSON text, the
 * whole config or only `configKeys`, and a byte bound (config.readMaxBytes) on the answer.
 * Whole configs are measured by the database before any is read, then read a batch at a
 * time while the answer is sent; picked keys are read (by the database) before answering,
 * counted as they arrive.
 */
import { parseConfigKeys } from '../domain/config-keys.js';
import { resultTooLarge } from '../errors.js';
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

/** Configs read in one query at most about this many bytes (one larger config is read alone). */
const BATCH_BYTES = 1024 * 1024;
/** Bytes a row takes in the answer besides its fields' texts (keys, url, times), and per metric summary. */
const ROW_BYTES = 512;
const SUMMARY_BYTES = 160;

/** What a row's answer takes besides its config. */
const rowBytes = (r: RunSearchRow): number =>
  ROW_BYTES +
  Buffer.byteLength(r.run.name) +
  Buffer.byteLength(JSON.stringify(r.run.tags)) +
  2 * Buffer.byteLength(r.run.projectName) +
  SUMMARY_BYTES * (r.summaries?.length ?? 0);

/** Consecutive runs whose configs add up to at most BATCH_BYTES (or a single run). */
function batchesOf(rows: readonly RunSearchRow[]): RunSearchRow[][] {
  const batches: RunSearchRow[][] = [];
  let bytes = Number.POSITIVE_INFINITY;
  for (const row of rows) {
    if (bytes + row.run.configBytes > BATCH_BYTES) {
      batches.push([]);
      bytes = 0;
    }
    batches.at(-1)!.push(row);
    bytes += row.run.configBytes;
  }
  return batches;
}

/** The rows with their config texts, a batch at a time (a run deleted meanwhile answers config null). */
async function* withConfigs(ctx: Ctx, rows: readonly RunSearchRow[], paths: string[][] | undefined) {
  for (const batch of batchesOf(rows)) {
    const none = paths?.length === 0;
    const wanted = none ? [] : batch.filter((r) => r.run.configBytes > 0).map((r) => r.run.id);
    const texts = await ctx.deps.metadata.listConfigTexts(ctx.principal.orgId, wanted, paths);
    const config = (r: RunSearchRow) => (r.run.configBytes === 0 ? null : none ? '{}' : (texts.get(r.run.id) ?? null));
    yield batch.map((r): ListedRun => ({ ...r, config: config(r) }));
  }
}

function tooLarge(ctx: Ctx, bytes: number, runs: number, picked: boolean): Error {
  const mb = (n: number) => (n / (1024 * 1024)).toFixed(1);
  const max = ctx.deps.config.readMaxBytes;
  return resultTooLarge(
    `these ${runs} runs would answer ${picked ? 'more than' : 'about'} ${mb(bytes)} MB, more than the ${mb(max)} MB ` +
      `one read may answer (STEPWISE_READ_MAX_BYTES); ask for fewer runs with a lower limit, or for only some config ` +
      `keys with configKeys (e.g. configKeys=lr,batch_size; configKeys= with no keys leaves every config empty)`,
  );
}

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
  const max = ctx.deps.config.readMaxBytes;
  let bytes = rows.reduce((n, r) => n + rowBytes(r), 0);
  if (paths === undefined) {
    bytes += rows.reduce((n, r) => n + r.run.configBytes, 0);
    if (bytes > max) throw tooLarge(ctx, bytes, rows.length, false);
    return { total, batches: withConfigs(ctx, rows, undefined) };
  }
  const loaded: ListedRun[][] = [];
  for await (const batch of withConfigs(ctx, rows, paths)) {
    for (const row of batch) bytes += row.config === null ? 4 : Buffer.byteLength(row.config);
    if (bytes > max) throw tooLarge(ctx, bytes, rows.length, true);
    loaded.push(batch);
  }
  return { total, batches: loaded };
}
