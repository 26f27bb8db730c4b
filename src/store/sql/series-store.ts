import type { Condition } from '../../domain/run-search.js';
import type {
  LineageLink,
  ConsoleLine,
  DataLine,
  FileInput,
  FileRecord,
  MetricPoint,
  MetricPointInput,
  SeriesSummary,
} from '../../domain/types.js';
import type { FileListQuery, MetricQuery, RankQuery, RunRef, SeriesStore, SummaryQuery } from '../series-store.js';
import { appendConsole } from './console/console.js';
import { listConsoleJson } from './console/console-page.js';
import { appendData, listData } from './console/data-lines.js';
import type { SqlDb } from './db.js';
import { createFiles, fileListStats, findFile, listFiles, listPendingFiles, markFileUploaded } from './files.js';
import { metricNames, projectSummaries } from './metrics/metric-names.js';
import { projectLastValues, projectRunsByLastValue } from './metrics/last-values.js';
import { rankRuns } from './metrics/rank-runs.js';
import type { RankedRun } from '../../domain/aggregation.js';
import { countMetricPoints } from './metrics/metric-count.js';
import { maxStep, metricSeries, queryMetrics, readPoints, summarize } from './metrics/metric-read.js';
import { appendMetrics } from './metrics/metric-write.js';
import { TailCache } from './chunks/tail-cache.js';
import { StatsCache } from './chunks/stats-cache.js';
import { toPacked, type PackedPoints } from '../../domain/packed-points.js';
import { RunWriteQueue } from './metrics/run-write-queue.js';

/** Options of SqlSeriesStore. */
export interface SqlSeriesStoreOptions {
  /**
   * Store the metric batches of a run that arrive while one of its writes is in flight
   * together, in one transaction (metrics/run-write-queue.ts): on PostgreSQL, transactions on one run
   * wait for each other's row locks and commit flushes; on the embedded store's writer thread,
   * each request would rewrite the same tail chunks again (1% re-logs: 169–181k → 185–190k
   * points/s in alternated runs; plain ingest within noise).
   */
  mergeRunWrites?: boolean;
}

/**
 * SeriesStore over any SqlDb: one implementation for every SQL engine. Each method forwards
 * to one function of a module in this folder (README.md maps them); its rules are documented
 * on the SeriesStore interface and its workings on that function.
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

  /** Also takes packed points (toPacked), as ingest and the embedded store's writer thread hand them over. */
  appendMetrics(run: RunRef, points: readonly MetricPointInput[] | PackedPoints): Promise<void> {
    const packed = toPacked(points);
    if (this.runWrites && packed.cols.length > 0) return this.runWrites.append(run, packed);
    return appendMetrics(this.sql, this.tails, this.chunkStats, run, packed);
  }

  readPoints(
    lineage: readonly LineageLink[],
    logName: string,
    stepMin: number,
    stepMax: number,
  ): Promise<MetricPoint[]> {
    return readPoints(this.sql, lineage, logName, stepMin, stepMax);
  }

  queryMetrics(lineage: readonly LineageLink[], q: MetricQuery): Promise<{ logName: string; points: MetricPoint[] }[]> {
    return queryMetrics(this.sql, lineage, q);
  }

  metricSeries(
    lineage: readonly LineageLink[],
    q: MetricQuery,
  ): AsyncIterable<{ logName: string; points: MetricPoint[] }> {
    return metricSeries(this.sql, lineage, q);
  }

  countMetricPoints(lineage: readonly LineageLink[], q: MetricQuery, stopAbove?: number): Promise<number> {
    return countMetricPoints(this.sql, lineage, q, stopAbove);
  }

  summarize(lineage: readonly LineageLink[], logNames?: readonly string[], q?: SummaryQuery): Promise<SeriesSummary[]> {
    return summarize(this.sql, lineage, logNames, q);
  }

  projectRunsByLastValue(projectId: number, logName: string, cond: Condition, negate: boolean): Promise<number[]> {
    return projectRunsByLastValue(this.sql, projectId, logName, cond, negate);
  }

  projectLastValues(
    projectId: number,
    logName: string,
    descending: boolean,
    limit: number,
    offset: number,
  ): Promise<[number, number][]> {
    return projectLastValues(this.sql, projectId, logName, descending, limit, offset);
  }

  projectSummaries(projectId: number, logName: string): Promise<SeriesSummary[]> {
    return projectSummaries(this.sql, projectId, logName);
  }

  rankRuns(q: RankQuery, exclude: readonly number[]): Promise<{ rows: RankedRun[]; total: number }> {
    return rankRuns(this.sql, q, exclude);
  }

  maxStep(lineage: readonly LineageLink[]): Promise<number | null> {
    return maxStep(this.sql, lineage);
  }

  metricNames(
    projectId: number,
    runIds: readonly number[] | null,
    search: string | null,
    limit: number,
  ): Promise<string[]> {
    return metricNames(this.sql, projectId, runIds, search, limit);
  }

  appendConsole(runId: number, lines: readonly ConsoleLine[]): Promise<void> {
    return appendConsole(this.sql, runId, lines);
  }

  listConsoleJson(
    runId: number,
    logType: string | null,
    limit: number,
    offset: number,
  ): Promise<{ lines: string[]; total: number }> {
    return listConsoleJson(this.sql, runId, logType, limit, offset);
  }

  appendData(runId: number, lines: readonly DataLine[]): Promise<void> {
    return appendData(this.sql, runId, lines);
  }

  listData(
    runId: number,
    logName: string | null,
    limit: number,
    offset: number,
  ): Promise<{ lines: DataLine[]; total: number }> {
    return listData(this.sql, runId, logName, limit, offset);
  }

  createFiles(runId: number, files: readonly FileInput[]): Promise<FileRecord[]> {
    return createFiles(this.sql, runId, files);
  }

  markFileUploaded(blobKey: string, size: number, at: number): Promise<boolean> {
    return markFileUploaded(this.sql, blobKey, size, at);
  }

  findFile(blobKey: string): Promise<FileRecord | undefined> {
    return findFile(this.sql, blobKey);
  }

  listFiles(runId: number, q: FileListQuery): Promise<FileRecord[]> {
    return listFiles(this.sql, runId, q);
  }

  fileListStats(runId: number, q: FileListQuery): Promise<{ count: number; bytes: number }> {
    return fileListStats(this.sql, runId, q);
  }

  listPendingFiles(runId: number, since: number, limit: number): Promise<FileRecord[]> {
    return listPendingFiles(this.sql, runId, since, limit);
  }

  close(): Promise<void> {
    return this.sql.close();
  }
}
