/**
 * Answers that hold runs with their configs as stored JSON text (runs/list, leaderboard,
 * compare): their size, measured from the runs' heads (stored lengths, no config read), the
 * refusal of one past config.readMaxBytes, and the configs read a batch at a time as the
 * answer is sent, so that a request holds about one batch, never the answer.
 */
import type { RunHead, SeriesSummary } from '../domain/types.js';
import { type AppError, resultTooLarge } from '../errors.js';
import type { Ctx } from './context.js';

/** A run of such an answer, without its config, and the metric summaries its row holds, if any. */
export interface HeadRow {
  run: RunHead;
  summaries?: SeriesSummary[] | undefined;
}

/** Configs read in one query at most about this many bytes (one larger config is read alone). */
const BATCH_BYTES = 1024 * 1024;
/** Bytes a row takes in the answer besides its fields' texts (keys, url, times, stats), and per metric summary. */
const ROW_BYTES = 512;
const SUMMARY_BYTES = 160;

/** What a row's answer takes besides its config. */
export const rowBytes = (r: HeadRow): number =>
  ROW_BYTES +
  Buffer.byteLength(r.run.name) +
  Buffer.byteLength(JSON.stringify(r.run.tags)) +
  2 * Buffer.byteLength(r.run.projectName) +
  SUMMARY_BYTES * (r.summaries?.length ?? 0);

/** About what the rows take in an answer with their whole configs, from the stored lengths. */
const answerBytes = (rows: readonly HeadRow[]): number => rows.reduce((n, r) => n + rowBytes(r) + r.run.configBytes, 0);

/**
 * RESULT_TOO_LARGE for an answer of `bytes` (about, or `more than` when counted only up to
 * the bound) past config.readMaxBytes: "`what` would answer … MB, more than …; `advice`".
 */
export function readTooLarge(ctx: Ctx, what: string, bytes: number, more: boolean, advice: string): AppError {
  const mb = (n: number) => (n / (1024 * 1024)).toFixed(1);
  return resultTooLarge(
    `${what} would answer ${more ? 'more than' : 'about'} ${mb(bytes)} MB, more than the ` +
      `${mb(ctx.deps.config.readMaxBytes)} MB one read may answer (STEPWISE_READ_MAX_BYTES); ${advice}`,
  );
}

/** Throws readTooLarge unless the rows with their whole configs fit config.readMaxBytes. */
export function checkAnswerBytes(ctx: Ctx, rows: readonly HeadRow[], what: string, advice: string): void {
  const bytes = answerBytes(rows);
  if (bytes > ctx.deps.config.readMaxBytes) throw readTooLarge(ctx, what, bytes, false, advice);
}

/** Consecutive rows whose configs add up to at most BATCH_BYTES (or a single row). */
function batchesOf<R extends HeadRow>(rows: readonly R[]): R[][] {
  const batches: R[][] = [];
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

/**
 * The rows with their config texts (whole, or with `paths` only those keys; see
 * MetadataStore.listConfigTexts), a batch at a time, in order, each batch read only when
 * the one before is taken. An unset config, or a run deleted meanwhile, answers null.
 */
export async function* withConfigTexts<R extends HeadRow>(
  ctx: Ctx,
  rows: readonly R[],
  paths?: string[][],
): AsyncGenerator<(R & { config: string | null })[]> {
  for (const batch of batchesOf(rows)) {
    const none = paths?.length === 0;
    const wanted = none ? [] : batch.filter((r) => r.run.configBytes > 0).map((r) => r.run.id);
    const texts = await ctx.deps.metadata.listConfigTexts(ctx.principal.orgId, wanted, paths);
    const config = (r: R) => (r.run.configBytes === 0 ? null : none ? '{}' : (texts.get(r.run.id) ?? null));
    yield batch.map((r) => ({ ...r, config: config(r) }));
  }
}
