/** Response shapes of a run's metric reads: points, statistics, metric names. */
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../schema-helpers.js';

const Num = Nullable(Type.Number());

/** A point as GET /api/runs/metrics answers it; a non-finite value is null with `valueFlag`. */
export const MetricPoint = Type.Object({
  logName: Type.String(),
  logGroup: Type.String(),
  time: Type.String(),
  step: Type.Integer(),
  value: Num,
  valueFlag: Type.Optional(Type.String()),
});
export type MetricPoint = Static<typeof MetricPoint>;

/**
 * The answer of GET /api/runs/metrics: points ordered by logName then step, and `total`, the
 * points in the step range before sampling (summed over the metrics answered).
 */
export const MetricPoints = Type.Object({ metrics: Type.Array(MetricPoint), total: Type.Integer() });
export type MetricPoints = Static<typeof MetricPoints>;

/** One metric's statistics in GET /api/runs/statistics (non-finite moments as null). */
export const MetricStats = Type.Object({
  logName: Type.String(),
  logGroup: Type.String(),
  count: Type.Integer(),
  min: Num,
  max: Num,
  mean: Num,
  stddev: Num,
  last: Nullable(Type.Object({ step: Type.Integer(), value: Num })),
});
export type MetricStats = Static<typeof MetricStats>;

/** The answer of GET /api/runs/statistics: the run and its metrics' statistics, by logName. */
export const Statistics = Type.Object({
  runId: Type.Integer(),
  runName: Type.String(),
  projectName: Type.String(),
  url: Type.String(),
  metrics: Type.Array(MetricStats),
});
export type Statistics = Static<typeof Statistics>;

/** The answer of GET /api/runs/metric-names. */
export const MetricNames = Type.Object({ projectName: Type.String(), metricNames: Type.Array(Type.String()) });
export type MetricNames = Static<typeof MetricNames>;

/**
 * One run's series in GET /api/runs/series, as columns: `steps`, `times` (epoch ms) and
 * `values` of the same length, ordered by step; a non-finite value is null in `values` and
 * its kind ("NaN", "Infinity", "-Infinity") is in `flags` under its index (absent when every
 * value is finite). `total`: the points in the step range before sampling; `sampled`: the
 * series holds fewer points than that.
 */
export const RunSeries = Type.Object({
  runId: Type.Integer(),
  logGroup: Type.String(),
  total: Type.Integer(),
  sampled: Type.Boolean(),
  steps: Type.Array(Type.Integer()),
  times: Type.Array(Type.Number()),
  values: Type.Array(Num),
  flags: Type.Optional(Type.Record(Type.String(), Type.String())),
});
export type RunSeries = Static<typeof RunSeries>;

/** The answer of GET /api/runs/series: one metric's series of each asked run, in the asked order. */
export const SeriesBatch = Type.Object({ logName: Type.String(), series: Type.Array(RunSeries) });
export type SeriesBatch = Static<typeof SeriesBatch>;
