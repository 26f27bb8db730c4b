import type { Condition } from '../../domain/run-search.js';
import type { LineageLink } from '../../domain/types.js';
import type {
  ConsoleLine,
  DataLine,
  FileInput,
  FileRecord,
  MetricPoint,
  MetricPointInput,
  MetricQuery,
  RankQuery,
  RunRef,
  SeriesStore,
  SeriesSummary,
  SummaryQuery,
} from '../series-store.js';
import { appendConsole, listConsole } from './sql-console.js';
import { appendData, listData } from './sql-data-lines.js';
import type { SqlDb } from './sql-db.js';
import { createFiles, findFile, listFiles, listPendingFiles, markFileUploaded } from './sql-files.js';
import { metricNames, projectSummaries } from './sql-metric-names.js';
import { projectLastValues, projectRunsByLastValue } from './sql-last-values.js';
import { rankRuns } from './sql-rank-runs.js';
import type { RankedRun } from '../../domain/aggregation.js';
import { maxStep, metricSeries, queryMetrics, readPoints, summarize } from './sql-metric-read.js';
import { appendMetrics } from './sql-metric-write.js';
import { TailCache } from './tail-cache.js';
import { StatsCache } from './stats-cache.js';
import { packPoints, type PackedPoints } from './packed-points.js';
import { RunWriteQueue } from './run-write-queue.js';

/** Options of SqlSeriesStore. */
export interface SqlSeriesStoreOptions {
  /**
   * Store the metric batches of a run that arrive while one of its writes is in flight
   * together, in one transaction (run-write-queue.ts): for engines whose transactions on
   * one run wait for each other's row locks and commit flushes (PostgreSQL).
   */
  mergeRunWrites?: boolean;
}

/**
 * SeriesStore over any SqlDb: one implementation for every SQL engine. Each method's rules
 * are documented on the SeriesStore interface and on the function it delegates to.
 */
export class SqlSeriesStore implements SeriesStore {
  /** Open tail chunks of the series this store wrote (only a writer's cache is ever used). */
  private readonly tails = new TailCache();
  /** Chunk statistics of series this store recomputed (StatsCache). */
  private readonly chunkStats = new StatsCache();

  /** Metric writes waiting per run, when merged (SqlSeriesStoreOptions.mergeRunWrites). */
  private readonly runWrites: RunWriteQueue | undefined;

  constructor(
    private readonly sql: SqlDb,
    options: SqlSeriesStoreOptions = {},
  ) {
    this.runWrites = options.mergeRunWrites
      ? new RunWriteQueue((run, points) => appendMetrics(this.sql, this.tails, this.chunkStats, run, points))
      : undefined;
  }

  /**
   * Stores a batch atomically, deduplicated per (series, step) — per (series, step, time) in a
   * sys/ series — with summaries updated in the same transaction.
   */
  appendMetrics(run: RunRef, points: readonly MetricPointInput[]): Promise<void> {
    if (this.runWrites && points.length > 0) return this.runWrites.append(run, packPoints(points));
    return appendMetrics(this.sql, this.tails, this.chunkStats, run, points);
  }

  /** appendMetrics of points packed by packPoints (the embedded store's writer thread receives them so). */
  appendPackedMetrics(run: RunRef, points: PackedPoints): Promise<void> {
    if (this.runWrites && points.cols.length > 0) return this.runWrites.append(run, points);
    return appendMetrics(this.sql, this.tails, this.chunkStats, run, points);
  }

  /** Effective points of one metric in [stepMin, stepMax], ascending by step. */
  readPoints(
    lineage: readonly LineageLink[],
    logName: string,
    stepMin: number,
    stepMax: number,
  ): Promise<MetricPoint[]> {
    return readPoints(this.sql, lineage, logName, stepMin, stepMax);
  }

  /** Sampled effective points per metric with points in range, by logName; throws BAD_REQUEST for a bad limit. */
  queryMetrics(lineage: readonly LineageLink[], q: MetricQuery): Promise<{ logName: string; points: MetricPoint[] }[]> {
    return queryMetrics(this.sql, lineage, q);
  }

  /** The sampled series of queryMetrics one at a time; throws RESULT_TOO_LARGE past q.maxPoints. */
  metricSeries(
    lineage: readonly LineageLink[],
    q: MetricQuery,
  ): AsyncIterable<{ logName: string; points: MetricPoint[] }> {
    return metricSeries(this.sql, lineage, q);
  }

  /** Effective summaries by logName (code point order); stored rows when unforked. */
  summarize(lineage: readonly LineageLink[], logNames?: readonly string[], q?: SummaryQuery): Promise<SeriesSummary[]> {
    return summarize(this.sql, lineage, logNames, q);
  }

  /** Runs whose metric's last finite value satisfies (or with negate, fails) the condition. */
  projectRunsByLastValue(projectId: number, logName: string, cond: Condition, negate: boolean): Promise<number[]> {
    return projectRunsByLastValue(this.sql, projectId, logName, cond, negate);
  }

  /** A page of [runId, last value] of one metric over the project's runs, by value then runId. */
  projectLastValues(
    projectId: number,
    logName: string,
    descending: boolean,
    limit: number,
    offset: number,
  ): Promise<[number, number][]> {
    return projectLastValues(this.sql, projectId, logName, descending, limit, offset);
  }

  /** Stored summaries of one metric for every run of the project, any order. */
  projectSummaries(projectId: number, logName: string): Promise<SeriesSummary[]> {
    return projectSummaries(this.sql, projectId, logName);
  }

  rankRuns(q: RankQuery, exclude: readonly number[]): Promise<{ rows: RankedRun[]; total: number }> {
    return rankRuns(this.sql, q, exclude);
  }

  /** Highest effective step over all metrics of the lineage, or null. */
  maxStep(lineage: readonly LineageLink[]): Promise<number | null> {
    return maxStep(this.sql, lineage);
  }

  /** Distinct metric names, code point order, case-insensitive literal substring search, at most limit. */
  metricNames(
    projectId: number,
    runIds: readonly number[] | null,
    search: string | null,
    limit: number,
  ): Promise<string[]> {
    return metricNames(this.sql, projectId, runIds, search, limit);
  }

  /** Stores console lines atomically; re-sent lines are kept once. */
  appendConsole(runId: number, lines: readonly ConsoleLine[]): Promise<void> {
    return appendConsole(this.sql, runId, lines);
  }

  /** A page of console lines by time then arrival, with the matching total. */
  listConsole(
    runId: number,
    logType: string | null,
    limit: number,
    offset: number,
  ): Promise<{ lines: ConsoleLine[]; total: number }> {
    return listConsole(this.sql, runId, logType, limit, offset);
  }

  /** Stores data lines atomically; re-sent lines are kept once. */
  appendData(runId: number, lines: readonly DataLine[]): Promise<void> {
    return appendData(this.sql, runId, lines);
  }

  /** A page of data lines by step, time, arrival, with the matching total. */
  listData(
    runId: number,
    logName: string | null,
    limit: number,
    offset: number,
  ): Promise<{ lines: DataLine[]; total: number }> {
    return listData(this.sql, runId, logName, limit, offset);
  }

  /** Creates or replaces file records awaiting bytes; returns them in input order. */
  createFiles(runId: number, files: readonly FileInput[], blobKey: (f: FileInput) => string): Promise<FileRecord[]> {
    return createFiles(this.sql, runId, files, blobKey);
  }

  /** Marks the file with this blob key uploaded; false when unknown or already uploaded. */
  markFileUploaded(blobKey: string, size: number, at: number): Promise<boolean> {
    return markFileUploaded(this.sql, blobKey, size, at);
  }

  /** The file record with this blob key, or undefined. */
  findFile(blobKey: string): Promise<FileRecord | undefined> {
    return findFile(this.sql, blobKey);
  }

  /** Uploaded files by step, sampleIndex, fileName. */
  listFiles(runId: number, logName: string | null, logGroup: string | null): Promise<FileRecord[]> {
    return listFiles(this.sql, runId, logName, logGroup);
  }

  /** Records awaiting bytes created at or after `since`, newest first, at most limit. */
  listPendingFiles(runId: number, since: number, limit: number): Promise<FileRecord[]> {
    return listPendingFiles(this.sql, runId, since, limit);
  }

  /** Closes the underlying database (shared with the metadata store when both use it). */
  close(): Promise<void> {
    return this.sql.close();
  }
}
