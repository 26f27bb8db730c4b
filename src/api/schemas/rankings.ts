/** Response shapes of the runs compared by one metric: leaderboard and compare. */
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../schema-helpers.js';
import { JsonValue } from './json.js';

/** A ranked run of GET /api/runs/leaderboard; `rank` counts from 1 over all pages. */
export const LeaderboardRow = Type.Object({
  rank: Type.Integer(),
  runId: Type.Integer(),
  runName: Type.String(),
  status: Type.String(),
  url: Type.String(),
  value: Type.Number(),
  tags: Type.Array(Type.String()),
  createdAt: Type.String(),
  config: JsonValue,
});
export type LeaderboardRow = Static<typeof LeaderboardRow>;

/** The answer of GET /api/runs/leaderboard. */
export const Leaderboard = Type.Object({
  projectName: Type.String(),
  logName: Type.String(),
  aggregation: Type.String(),
  direction: Type.String(),
  runs: Type.Array(LeaderboardRow),
  total: Type.Integer(),
});
export type Leaderboard = Static<typeof Leaderboard>;

/** The metric's stats in a compared run: null when the run has no finite value of it. */
export const CompareStats = Nullable(
  Type.Object({
    count: Type.Integer(),
    min: Type.Number(),
    max: Type.Number(),
    mean: Nullable(Type.Number()),
    final: Type.Number(),
  }),
);
export type CompareStats = Static<typeof CompareStats>;

/** One run of GET /api/runs/compare. */
export const CompareRow = Type.Object({
  runId: Type.Integer(),
  runName: Type.String(),
  url: Type.String(),
  status: Type.String(),
  stats: CompareStats,
  config: JsonValue,
});
export type CompareRow = Static<typeof CompareRow>;

/** The answer of GET /api/runs/compare. */
export const Compare = Type.Object({
  projectName: Type.String(),
  logName: Type.String(),
  comparisonUrl: Type.String(),
  runs: Type.Array(CompareRow),
});
export type Compare = Static<typeof Compare>;
