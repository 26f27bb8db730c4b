/**
 * The protocols of the embedded store's threads. The series writer thread runs the
 * SeriesStore methods that write (SERIES_WRITES) with the arguments they were called with,
 * cloned across threads; a write listed in WIRE_FORMS crosses in a cheaper form. Adding a
 * write to the store means adding its name here and a method posting it in
 * worker-series-store.ts. A search thread runs one ad-hoc read at a time (SearchRequest); a
 * bucket thread one BucketJob. All answer with a WorkerReply.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError, type ErrorCode } from '../../errors.js';
import type { SqlValue } from '../sql/sql-value.js';
import type { MetricQuery, RunRef, SeriesStore } from '../series-store.js';
import { toPacked, type PackedPoints } from '../../domain/packed-points.js';
import type { LineageLink, MetricPointInput } from '../../domain/types.js';
import type { StepBuckets } from '../../domain/step-buckets.js';
import type { LineageMetric } from '../sql/metrics/lineage-series.js';

/** The SeriesStore methods that write: the writer thread runs them; every other method reads on the caller's thread. */
export const SERIES_WRITES = [
  'appendMetrics',
  'appendConsole',
  'appendData',
  'createFiles',
  'markFileUploaded',
  'setRunSeriesHidden',
  'purgeRunData',
  'reclaimSpace',
] as const satisfies readonly (keyof SeriesStore)[];

export type SeriesWrite = (typeof SERIES_WRITES)[number];

/** A write's arguments as they cross, and the buffers moved rather than copied. */
export interface WireForm {
  args: unknown[];
  transfer: ArrayBuffer[];
}

/** Writes whose arguments cross in another form than a plain clone (the store method takes both forms). */
export const WIRE_FORMS: Partial<Record<SeriesWrite, (args: unknown[]) => WireForm>> = {
  // One Float64Array moved instead of 4 fields per point cloned, and only the run's ids.
  appendMetrics: ([run, points]) => {
    const { id, projectId } = run as RunRef;
    const packed = toPacked(points as readonly MetricPointInput[] | PackedPoints);
    return { args: [{ id, projectId }, packed], transfer: [packed.cols.buffer as ArrayBuffer] };
  },
};

/** A call from the main thread to the writer thread. */
export interface WorkerRequest {
  id: number;
  method: SeriesWrite | 'close';
  args: unknown[];
}

/** The writer thread's answer: the method's result, or its error (AppErrors keep their code). */
export type WorkerReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: { code: ErrorCode | null; message: string } };

/** A search thread's rows as they cross to the main thread: each column's values, in row order. */
export interface AdHocColumns {
  names: string[];
  columns: unknown[][];
}

/** Rows (arrays in the order of `names`) as columns. */
export function toColumns(names: string[], rows: readonly unknown[][]): AdHocColumns {
  return { names, columns: names.map((_, j) => rows.map((row) => row[j])) };
}

/** The rows of AdHocColumns as objects by column name, as better-sqlite3's `all` answers them. */
export function rowsOf({ names, columns }: AdHocColumns): Record<string, unknown>[] {
  const count = columns[0]?.length ?? 0;
  const rows = new Array<Record<string, unknown>>(count);
  for (let i = 0; i < count; i++) {
    const row: Record<string, unknown> = {};
    for (let j = 0; j < names.length; j++) row[names[j]!] = columns[j]![i];
    rows[i] = row;
  }
  return rows;
}

/** A search thread's job: one read, stopped past `deadline` (epoch ms; 0 = none). */
export interface SearchRequest {
  id: number;
  sql: string;
  params: readonly SqlValue[];
  deadline: number;
}

/** A bucket thread's job: the runs' metrics to sum per bucket, stopped past `deadline` (epoch ms; 0 = none). */
export interface BucketJob {
  id: number;
  kind: 'sums';
  metrics: readonly { runId: number; metric: LineageMetric }[];
  buckets: StepBuckets;
  deadline: number;
  timeoutMs: number;
}

/** A bucket thread's other job: one metric of a run's lineage, sampled as SeriesStore.queryMetrics reads it. */
export interface SampleJob {
  id: number;
  kind: 'sample';
  lineage: readonly LineageLink[];
  query: MetricQuery;
}

/** A sampled series as a bucket thread answers it: (step, time, value, flag index) per point, one moved array. */
export interface SampledSeries {
  logName: string;
  cols: Float64Array;
}

/** A run's sums as a bucket thread answers them (RunBucketSums' arrays). */
export interface BucketRunSums {
  runId: number;
  sum: Float64Array;
  comp: Float64Array;
  count: Float64Array;
  nonFinite: Float64Array;
}

/** A thread's failed answer for an error (AppErrors keep their code). */
export function errorReply(id: number, err: unknown): WorkerReply {
  const error =
    err instanceof AppError
      ? { code: err.code, message: err.message }
      : { code: null, message: err instanceof Error ? err.message : String(err) };
  return { id, ok: false, error };
}

/** The error a failed answer stands for: an AppError when it has a code. */
export function replyError(error: { code: ErrorCode | null; message: string }): Error {
  return error.code ? new AppError(error.code, error.message) : new Error(error.message);
}

/** The compiled script of a thread (`series-worker.js`): tests run this module from source, threads run from dist/. */
export function workerScript(name: string): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const sibling = path.join(here, name);
  if (fs.existsSync(sibling)) return sibling;
  return path.resolve(here, '../../../dist/store/sqlite', name);
}
