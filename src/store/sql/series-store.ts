import type { RunRef, SeriesStore } from '../series-store.js';
import { appendConsole } from './console/console.js';
import { listConsoleJson } from './console/console-page.js';
import { searchConsoleJson } from './console/console-search.js';
import { appendData, listData } from './console/data-lines.js';
import { bindStore, storeClass, type SqlFunctions } from './bind-store.js';
import type { SqlDb } from './db.js';
import { createFiles, fileListStats, findFile, listFiles, listPendingFiles, markFileUploaded } from './files.js';
import { metricNames, projectSummaries } from './metrics/metric-names.js';
import { projectRunsByValue, projectValues } from './metrics/summary-values.js';
import { rankRuns } from './metrics/rank-runs.js';
import { bucketSums } from './metrics/bucket-sums.js';
import { countMetricPoints, tallyMetricPoints } from './metrics/metric-count.js';
import { maxStep, metricSeries, queryMetrics, readPoints, summarize } from './metrics/metric-read.js';
import { appendMetrics } from './metrics/metric-write.js';
import { TailCache } from './chunks/tail-cache.js';
import { StatsCache } from './chunks/stats-cache.js';
import { toPacked, type PackedPoints } from '../../domain/packed-points.js';
import { listRunBlobKeys, purgeRunData, reclaimSpace, setRunSeriesHidden } from './trash/series-trash.js';
import { RunWriteQueue } from './metrics/run-write-queue.js';

/** Options of SqlSeriesStore. */
export interface SqlSeriesStoreOptions {
  /**
   * Store the metric batches of a run that arrive while one of its writes is in flight
   * together, in one transaction (metrics/run-write-queue.ts): on PostgreSQL, transactions on
   * one run wait for each other's row locks and commit flushes; on the embedded store's writer thread,
   * each request would rewrite the same tail chunks again (1% re-logs: 169–181k → 185–190k
   * points/s in alternated runs; plain ingest within noise).
   */
  mergeRunWrites?: boolean;
}

/** The SeriesStore methods but appendMetrics, which keeps the writer's caches. */
type FunctionMethods = Omit<SeriesStore, 'appendMetrics'>;

/** The function of each of those methods. */
const SERIES_FUNCTIONS: SqlFunctions<FunctionMethods> = {
  readPoints,
  queryMetrics,
  metricSeries,
  countMetricPoints,
  tallyMetricPoints,
  summarize,
  projectRunsByValue,
  projectValues,
  projectSummaries,
  rankRuns,
  bucketSums,
  maxStep,
  metricNames,
  appendConsole,
  listConsoleJson,
  searchConsoleJson,
  appendData,
  listData,
  createFiles,
  markFileUploaded,
  findFile,
  listFiles,
  fileListStats,
  listPendingFiles,
  setRunSeriesHidden,
  listRunBlobKeys,
  purgeRunData,
  reclaimSpace,
  close: (db) => db.close(),
};

/**
 * SeriesStore over any SqlDb: one implementation for every SQL engine. Each method is the
 * function of the same name (README.md maps the folders), called with the database first;
 * its rules are documented on the SeriesStore interface and its workings on the function.
 * appendMetrics also takes packed points (toPacked), as ingest and the embedded store's
 * writer thread hand them over.
 */
export const SqlSeriesStore = storeClass((db: SqlDb, options: SqlSeriesStoreOptions = {}): SeriesStore => {
  // Open tail chunks and recomputed chunk statistics of the series this store wrote (only a
  // writer's are ever used: TailCache, StatsCache).
  const tails = new TailCache();
  const chunkStats = new StatsCache();
  const write = (run: RunRef, packed: PackedPoints) => appendMetrics(db, tails, chunkStats, run, packed);
  // Metric writes waiting per run, when merged (SqlSeriesStoreOptions.mergeRunWrites).
  const runWrites = options.mergeRunWrites ? new RunWriteQueue(write) : undefined;
  return {
    ...bindStore<FunctionMethods>(db, SERIES_FUNCTIONS),
    appendMetrics: (run, points) => {
      const packed = toPacked(points);
      return runWrites && packed.cols.length > 0 ? runWrites.append(run, packed) : write(run, packed);
    },
  };
});
export type SqlSeriesStore = SeriesStore;
