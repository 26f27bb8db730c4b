/** Request and response shapes of run grouping: GET /api/runs/groups and /api/runs/groups/metrics. */
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, ProjectName, QueryInt, RunNarrowingQuery } from '../schema-helpers.js';

const Num = Nullable(Type.Number());

/**
 * The query of GET /api/runs/groups: 1–3 comma-separated group fields, narrowing, optional
 * metrics and which summaries of them (comma-separated last, min, max, mean; default last).
 */
export const GroupsQuery = Type.Object({
  projectName: ProjectName,
  groupBy: Type.String({ minLength: 1, maxLength: 3_000 }),
  ...RunNarrowingQuery,
  metrics: Type.Optional(Type.String({ maxLength: 20_000 })),
  summaries: Type.Optional(Type.String({ maxLength: 100 })),
  configKeys: Type.Optional(Type.String({ maxLength: 100_000 })),
});
export type GroupsQuery = Static<typeof GroupsQuery>;

/** The query of GET /api/runs/groups/metrics: the groups' query plus one metric and its bucket window. */
export const GroupMetricsQuery = Type.Object({
  projectName: ProjectName,
  groupBy: Type.String({ minLength: 1, maxLength: 3_000 }),
  ...RunNarrowingQuery,
  logName: Type.String({ minLength: 1, maxLength: 1024 }),
  limit: QueryInt(1, 10_000, 1000),
  stepMin: Type.Optional(QueryInt(0, Number.MAX_SAFE_INTEGER)),
  stepMax: Type.Optional(QueryInt(0, Number.MAX_SAFE_INTEGER)),
});
export type GroupMetricsQuery = Static<typeof GroupMetricsQuery>;

/** A group field's value: a JSON scalar (objects and arrays as their JSON text), null when the run has none. */
export const GroupValue = Type.Union([Type.Number(), Type.String(), Type.Boolean(), Type.Null()]);
export type GroupValue = Static<typeof GroupValue>;

/** A group's key: its value of each groupBy field, by field name (e.g. {"config.lr": 0.01}). */
export const GroupKey = Type.Record(Type.String(), GroupValue);
export type GroupKey = Static<typeof GroupKey>;

/**
 * One metric over one value per run of a group (its last finite value, or the min, max or
 * mean of its finite values); `std` is the sample standard deviation (null when n < 2).
 */
export const GroupSummary = Type.Object({
  n: Type.Integer(),
  mean: Num,
  std: Num,
  min: Num,
  max: Num,
});
export type GroupSummary = Static<typeof GroupSummary>;

/** A config key over a group's runs: how many distinct values they hold (null for a run without it), the first 10 in key order. */
export const GroupConfigValues = Type.Object({
  count: Type.Integer(),
  values: Type.Array(GroupValue),
});
export type GroupConfigValues = Static<typeof GroupConfigValues>;

/**
 * One group of runs: its key, its exact run count, at most 1,000 of its run ids (ascending),
 * and by metric the summaries asked for: over the runs' last values (`summary`), their
 * minimums (`summaryMin`), maximums (`summaryMax`) or means (`summaryMean`); with `configKeys`,
 * each key's distinct values over the runs (`configValues`).
 */
export const RunGroup = Type.Object({
  key: GroupKey,
  runCount: Type.Integer(),
  runIds: Type.Array(Type.Integer()),
  summary: Type.Optional(Type.Record(Type.String(), GroupSummary)),
  summaryMin: Type.Optional(Type.Record(Type.String(), GroupSummary)),
  summaryMax: Type.Optional(Type.Record(Type.String(), GroupSummary)),
  summaryMean: Type.Optional(Type.Record(Type.String(), GroupSummary)),
  configValues: Type.Optional(Type.Record(Type.String(), GroupConfigValues)),
});
export type RunGroup = Static<typeof RunGroup>;

/** The answer of GET /api/runs/groups: groups ordered by key (numbers, strings, booleans, null last). */
export const RunGroups = Type.Object({
  projectName: Type.String(),
  groupBy: Type.Array(Type.String()),
  groups: Type.Array(RunGroup),
  total: Type.Integer(),
});
export type RunGroups = Static<typeof RunGroups>;

/**
 * One bucket of a group's metric: steps `step`..`stepEnd`; `n` runs with a finite point there,
 * each counted by the mean of its finite points in the bucket; `std` sample (null when n < 2),
 * `stderr` = std / √n; `nonFinite` the non-finite points left out (absent when none).
 */
export const GroupPoint = Type.Object({
  step: Type.Integer(),
  stepEnd: Type.Integer(),
  n: Type.Integer(),
  mean: Type.Number(),
  std: Num,
  stderr: Num,
  min: Type.Number(),
  max: Type.Number(),
  nonFinite: Type.Optional(Type.Integer()),
});
export type GroupPoint = Static<typeof GroupPoint>;

/** One group's buckets in GET /api/runs/groups/metrics (buckets with n = 0 left out), in step order. */
export const GroupSeries = Type.Object({
  key: GroupKey,
  runCount: Type.Integer(),
  points: Type.Array(GroupPoint),
});
export type GroupSeries = Static<typeof GroupSeries>;

/** The answer of GET /api/runs/groups/metrics: each group's buckets, groups in the order of GET /api/runs/groups. */
export const GroupMetrics = Type.Object({
  projectName: Type.String(),
  groupBy: Type.Array(Type.String()),
  logName: Type.String(),
  groups: Type.Array(GroupSeries),
  total: Type.Integer(),
});
export type GroupMetrics = Static<typeof GroupMetrics>;
