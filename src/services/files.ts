import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { logGroupOf } from '../domain/log-group.js';
import { logNameTypeOfFile } from '../domain/log-name-type.js';
import type { FileInput, FileRecord, RunTarget } from '../domain/types.js';
import { AppError, badRequest, resultTooLarge } from '../errors.js';
import type { Ctx, Deps } from './context.js';
import { getProjectRun } from './run-lookup.js';
import { confirmDirectUploads } from './upload-check.js';

/** Download links are valid this long (docs/api.md §6: 5 days). */
export const DOWNLOAD_TTL_MS = 5 * 24 * 60 * 60 * 1000;

export interface FileRequest {
  fileName: string;
  logName: string;
  fileSize: number;
  fileType: string;
  step?: number | null;
  time?: number | null;
  caption?: string | null;
  sampleIndex?: number | null;
}

/** C0 control characters and DEL: never part of a real file name, and unsafe in headers and keys. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Throws BAD_REQUEST when a file or log name could escape its run's storage or carry
 * control characters (CR/LF would end up in a download's Content-Disposition).
 */
export function checkFileNames(f: { fileName: string; logName: string }): void {
  const { fileName, logName } = f;
  if (/[/\\]/.test(fileName) || CONTROL.test(fileName) || fileName === '.' || fileName === '..') {
    throw badRequest(
      `fileName ${JSON.stringify(fileName)} must not contain / \\ or control characters, nor be . or ..`,
    );
  }
  checkLogName(logName);
}

/** Throws BAD_REQUEST when a log name holds control characters or `.` or `..` path segments. */
export function checkLogName(logName: string): void {
  if (CONTROL.test(logName) || logName.split(/[/\\]/).some((part) => part === '.' || part === '..')) {
    throw badRequest(`logName ${JSON.stringify(logName)} must not contain control characters or . or .. segments`);
  }
}

/**
 * Records files awaiting upload and answers the Python client's shape:
 * `{"<logName>": [{"<fileName>": "<signed upload url>"}]}`.
 */
export async function requestUploads(
  ctx: Ctx,
  run: RunTarget,
  files: readonly FileRequest[],
): Promise<Record<string, Record<string, string>[]>> {
  files.forEach(checkFileNames);
  const max = ctx.deps.config.uploadMaxBytes;
  const big = files.find((f) => f.fileSize > max);
  if (big) {
    throw new AppError('PAYLOAD_TOO_LARGE', `fileSize of ${big.fileName} is over the largest upload (${max} bytes)`);
  }
  const now = Date.now();
  const inputs: FileInput[] = files.map((f) => ({
    logName: f.logName,
    fileName: f.fileName,
    fileType: f.fileType,
    fileSize: f.fileSize,
    step: f.step ?? 0,
    sampleIndex: f.sampleIndex ?? 0,
    time: f.time ?? now,
    caption: f.caption ?? null,
    blobKey: `${run.orgId}/${run.id}/${randomUUID()}/${f.fileName}`,
  }));
  const entries = [...new Map(inputs.map((f) => [f.logName, logNameTypeOfFile(f.fileType, f.fileName)])).entries()];
  await ctx.deps.metadata.addLogNames(
    ctx.principal.orgId,
    run.id,
    entries.map(([logName, logType]) => ({ logName, logType, logGroup: logGroupOf(logName) })),
    now,
    ctx.deps.config.runMaxLogNames,
  );
  const records = await ctx.deps.series.createFiles(run.id, inputs);
  const out: Record<string, Record<string, string>[]> = {};
  for (const r of records) {
    (out[r.logName] ??= []).push({ [r.fileName]: await ctx.deps.blobs.uploadUrl(r.blobKey, r.fileSize) });
  }
  return out;
}

/** Most files one listing answers (as many as one POST /files may announce). */
export const MAX_FILES_PER_READ = 10_000;
/** Bytes of one file in a listing besides its stored texts (keys, times, the link's signature). */
const FILE_BYTES = 1024;

/**
 * A page of a run's files whose bytes have arrived (all of them when no limit is given), each
 * with a 5-day download link. Throws NOT_FOUND, and RESULT_TOO_LARGE, before any file is read,
 * when the listing would hold more than MAX_FILES_PER_READ files or pass config.readMaxBytes.
 */
export async function listRunFiles(
  ctx: Ctx,
  q: { runId: number; projectName?: string; logName?: string; logGroup?: string; limit?: number; offset?: number },
): Promise<(FileRecord & { url: string })[]> {
  const run = await getProjectRun(ctx, q.runId, q.projectName);
  await confirmDirectUploads(ctx.deps, run.id);
  const query = {
    logName: q.logName || null,
    logGroup: q.logGroup || null,
    limit: q.limit ?? MAX_FILES_PER_READ + 1,
    offset: q.offset ?? 0,
  };
  const { series, config } = ctx.deps;
  const stats = await series.fileListStats(run.id, query);
  const bytes = stats.bytes + stats.count * (FILE_BYTES + ctx.deps.config.publicUrl.length);
  if (stats.count > MAX_FILES_PER_READ || bytes > config.readMaxBytes) {
    const mb = (n: number) => (n / (1024 * 1024)).toFixed(1);
    throw resultTooLarge(
      `this listing would answer ${stats.count > MAX_FILES_PER_READ ? `more than ${MAX_FILES_PER_READ}` : stats.count} ` +
        `files and about ${mb(bytes)} MB, more than one read may answer (${MAX_FILES_PER_READ} files; ` +
        `${mb(config.readMaxBytes)} MB, STEPWISE_READ_MAX_BYTES); ask for one logName or logGroup, or page with ` +
        `limit and offset`,
    );
  }
  const records = await series.listFiles(run.id, query);
  return Promise.all(
    records.map(async (r) => ({ ...r, url: await ctx.deps.blobs.downloadUrl(r.blobKey, r.fileName, DOWNLOAD_TTL_MS) })),
  );
}

/** The bytes of a stored file by its blob key (the caller has verified the signed link). */
export function openDownload(deps: Deps, key: string): Promise<{ stream: Readable; size: number }> {
  return deps.blobs.get(key);
}
