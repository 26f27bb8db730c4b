import type { Aggregation, Direction, RankedRun } from '../domain/aggregation.js';
import type { Condition, MetricAgg } from '../domain/run-search.js';
import type { PackedPoints } from '../domain/packed-points.js';
import type { RunBucketSums, StepBuckets } from '../domain/step-buckets.js';
import type {
  ConsoleLine,
  DataLine,
  FileInput,
  FileRecord,
  LineageLink,
  MetricPoint,
  MetricPointInput,
  SeriesSummary,
} from '../domain/types.js';

export interface RankQuery {
  projectId: number;
  logName: string;
  aggregation: Aggregation;
  direction: Direction;
  limit: number;
  offset: number;
  /** Rank only these runs (any number of ids); undefined ranks every run of the project. */
  runIds?: readonly number[];
}

/** A run and its fork lineage (MetadataStore.getLineage; an unforked run: itself, maxStep Infinity). */
export interface RunLineage {
  runId: number;
  lineage: readonly LineageLink[];
}

/** The step window of SeriesStore.bucketSums: optional bounds, most buckets, and the read's deadline. */
export interface BucketWindow {
  stepMin?: number;
  stepMax?: number;
  limit: number;
  /** Epoch ms past which the read throws QUERY_TIMEOUT; 0 = none. */
  deadline: number;
  /** The timeout the deadline came from, for the error's message. */
  timeoutMs: number;
}

/** A run as the series store needs it: ids only. */
export interface RunRef {
  id: number;
  projectId: number;
}

export interface MetricQuery {
  logNames?: readonly string[];
  logGroup?: string;
  stepMin: number;
  stepMax: number;
  limit: number;
}

/** Options of SeriesStore.summarize: an exact logGroup filter and a bound on the metrics answered. */
export interface SummaryQuery {
  logGroup?: string;
  /** Most metrics the answer may hold; more throws RESULT_TOO_LARGE. Undefined = no bound. */
  maxMetrics?: number;
}

/** Which uploaded files of a run to list: exact logName / logGroup (null: any) and a page. */
export interface FileListQuery {
  logName: string | null;
  logGroup: string | null;
  limit: number;
  offset: number;
}

/** What a search narrows a run's console lines to; every part is optional. */
export interface ConsoleSearch {
  logType: string | null;
  /** Lines whose message contains this text, ASCII letters folded; null for any. */
  contains: string | null;
  stepMin: number | null;
  stepMax: number | null;
}

/**
 * Metric points with their summaries, console lines, data lines and file records.
 * Reads take a fork lineage (MetadataStore.getLineage): a run's effective series is each
 * link's points up to its maxStep, an earlier link's point replacing a later one's.
 */
export interface SeriesStore {
  /**
   * Stores points atomically: one point per (run, logName, step), the later time winning
   * (equal times: this write wins) — per (run, logName, step, time) for a sys/ logName
   * (docs/api.md §4.2), so every system sample is kept; summaries are updated in the same transaction.
   * Packed points (as ingest parses them) are handed over: the store may move their buffer.
   */
  appendMetrics(run: RunRef, points: readonly MetricPointInput[] | PackedPoints): Promise<void>;
  /** Effective points of one metric in [stepMin, stepMax], ordered by step (then time in a sys/ series). */
  readPoints(
    lineage: readonly LineageLink[],
    logName: string,
    stepMin: number,
    stepMax: number,
  ): Promise<MetricPoint[]>;
  /**
   * Effective points per metric, at most `limit` per metric, chosen by shape-preserving
   * sampling (first, last, each bucket's min and max). Ordered by logName, then step.
   * Unbounded: a caller bounds the answer with countMetricPoints first.
   */
  queryMetrics(lineage: readonly LineageLink[], q: MetricQuery): Promise<{ logName: string; points: MetricPoint[] }[]>;
  /**
   * The series of queryMetrics one at a time, in the same order, so a caller can turn each
   * into its answer while the rest are read; throws (while iterating) what queryMetrics throws.
   */
  metricSeries(
    lineage: readonly LineageLink[],
    q: MetricQuery,
  ): AsyncIterable<{ logName: string; points: MetricPoint[] }>;
  /**
   * The points queryMetrics(lineage, q) answers at most, counted before reading them: per
   * metric, min(q.limit, its effective points in the step range), summed. Stops counting once
   * the sum passes `stopAbove` and returns that partial sum. Cost: one series query per 500
   * metrics, plus one chunk-index query per series cut by the step range or a fork.
   */
  countMetricPoints(lineage: readonly LineageLink[], q: MetricQuery, stopAbove?: number): Promise<number>;
  /**
   * countMetricPoints (`answered`) and the points before sampling (`total`, as with limit
   * unbounded) in one pass; `total` is exact only when `answered` is not above `stopAbove`.
   */
  tallyMetricPoints(
    lineage: readonly LineageLink[],
    q: MetricQuery,
    stopAbove?: number,
  ): Promise<{ answered: number; total: number }>;
  /**
   * Effective summaries of a run's metrics (optionally only the named ones, or one logGroup),
   * sorted by logName (binary). Throws RESULT_TOO_LARGE when more than `q.maxMetrics` match.
   */
  summarize(lineage: readonly LineageLink[], logNames?: readonly string[], q?: SummaryQuery): Promise<SeriesSummary[]>;
  /**
   * Ids of a project's runs whose metric has a finite `agg` value (last, or min, max or mean
   * of the finite values; own points only) that satisfies `cond`, or with `negate`, one that
   * does not; any order. One index range (the last value from the index alone).
   */
  projectRunsByValue(
    projectId: number,
    logName: string,
    agg: MetricAgg,
    cond: Condition,
    negate: boolean,
  ): Promise<number[]>;
  /**
   * A page of [runId, finite `agg` value] of one metric (own points only) over a project's
   * runs that have one, by value then runId, both ascending or both descending.
   */
  projectValues(
    projectId: number,
    logName: string,
    agg: MetricAgg,
    descending: boolean,
    limit: number,
    offset: number,
  ): Promise<[number, number][]>;
  /** Stored summaries (own points only) of one metric for every run of a project. */
  projectSummaries(projectId: number, logName: string): Promise<SeriesSummary[]>;
  /**
   * Runs of a project ranked by an aggregate of their own points of one metric (ties by
   * runId ascending), skipping `exclude` (forks, ranked by the caller) and runs without a
   * finite value, and with `q.runIds` every other run (a read with the search deadline:
   * QUERY_TIMEOUT, OVERLOADED); the page and the number ranked.
   */
  rankRuns(q: RankQuery, exclude: readonly number[]): Promise<{ rows: RankedRun[]; total: number }>;
  /**
   * One metric's effective points of each run summed per equal-width step bucket
   * (domain/step-buckets.ts) over [stepMin, stepMax] (defaults: the runs' lowest and highest
   * visible step); undefined when no run has a point there. From chunk statistics where a
   * chunk fits one bucket, decoding only the chunks that straddle an edge. `sums` yields the
   * runs that have a point of the metric, in run order, and throws QUERY_TIMEOUT past the deadline.
   */
  bucketSums(
    runs: readonly RunLineage[],
    logName: string,
    window: BucketWindow,
  ): Promise<{ buckets: StepBuckets; sums: AsyncIterable<{ runId: number; sums: RunBucketSums }> } | undefined>;
  /** Highest effective step over all metrics, or null when there are no points. */
  maxStep(lineage: readonly LineageLink[]): Promise<number | null>;
  /** Distinct metric names of a project's runs (or of the given runs), sorted, filtered, limited. */
  metricNames(
    projectId: number,
    runIds: readonly number[] | null,
    search: string | null,
    limit: number,
  ): Promise<string[]>;

  /** Stores console lines atomically; a re-sent line (run, logType, lineNumber, time) is kept once. */
  appendConsole(runId: number, lines: readonly ConsoleLine[]): Promise<void>;
  /**
   * Console lines in production order (time, then arrival), paged, with the matching total;
   * each line is the JSON text of its answer object `{time, logType, lineNumber, message,
   * step}`, time in ISO 8601, so a page of 10,000 is sent without building 10,000 objects.
   */
  listConsoleJson(
    runId: number,
    logType: string | null,
    limit: number,
    offset: number,
  ): Promise<{ lines: string[]; total: number }>;
  /**
   * Console lines as listConsoleJson answers them, narrowed to a type, a step range and a
   * text the message contains (ASCII letters folded), paged, with the matching total. An
   * ad-hoc read: off the event loop, stopped at the query deadline (QUERY_TIMEOUT).
   */
  searchConsoleJson(
    runId: number,
    q: ConsoleSearch,
    limit: number,
    offset: number,
  ): Promise<{ lines: string[]; total: number }>;
  /** Stores data lines atomically; a re-sent line (run, logName, step, time) is kept once. */
  appendData(runId: number, lines: readonly DataLine[]): Promise<void>;
  /** Data lines of a run by step then time, optionally of one logName, paged, with total. */
  listData(
    runId: number,
    logName: string | null,
    limit: number,
    offset: number,
  ): Promise<{ lines: DataLine[]; total: number }>;

  /** Creates (or replaces, for the same run/logName/fileName/step) file records awaiting bytes. */
  createFiles(runId: number, files: readonly FileInput[]): Promise<FileRecord[]>;
  /**
   * Marks the file with this blob key as uploaded with its real size. Returns false when
   * unknown or already uploaded (a finished file is never changed by a later mark).
   */
  markFileUploaded(blobKey: string, size: number, at: number): Promise<boolean>;
  /** The file record with this blob key (uploaded or awaiting bytes), or undefined. */
  findFile(blobKey: string): Promise<FileRecord | undefined>;
  /** A page of a run's uploaded files by step, sampleIndex, fileName; optional exact filters. */
  listFiles(runId: number, q: FileListQuery): Promise<FileRecord[]>;
  /**
   * How many files listFiles(runId, q) returns, and the bytes of their file names, file types,
   * log names (counted twice: logName and logGroup), captions and blob keys.
   */
  fileListStats(runId: number, q: FileListQuery): Promise<{ count: number; bytes: number }>;
  /**
   * Records of a run still awaiting their bytes, created at or after `since` (epoch ms),
   * newest first, at most `limit`.
   */
  listPendingFiles(runId: number, since: number, limit: number): Promise<FileRecord[]>;
  /**
   * Takes the runs' metric series out of their projects' reads (leaderboards, search by
   * metric, metric names, project summaries) when `hidden`, or puts them back; reads by run
   * (a fork's lineage) still find them. Idempotent.
   */
  setRunSeriesHidden(runIds: readonly number[], hidden: boolean): Promise<number>;
  /** The blob keys of a run's file records, uploaded or not. */
  listRunBlobKeys(runId: number): Promise<string[]>;
  /**
   * Deletes a purged run's console lines, data lines and file records and, unless
   * keepSeries, its metric series and points, in one transaction. Idempotent.
   */
  purgeRunData(runId: number, keepSeries: boolean): Promise<void>;
  /** Gives the space of deleted rows back to the file system where the engine keeps it. */
  reclaimSpace(): Promise<void>;
  /** Closes the store. */
  close(): Promise<void>;
}
