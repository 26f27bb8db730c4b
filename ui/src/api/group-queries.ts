/**
 * Grouped runs: `GET /api/runs/groups` (the groups with their run counts and the summaries of
 * the table's metric columns) and `GET /api/runs/groups/metrics` (one metric of each group,
 * bucketed by step: mean, spread and n per bucket), both narrowed like the runs list.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { GroupMetrics, RunGroups } from '@server/api/schemas/groups';
import { apiGet } from './client';
import type { RunNarrowing } from './run-list-queries';

/** What both group reads take: the project, the fields and the runs list's narrowing. */
export interface GroupParams extends RunNarrowing {
  projectName: string;
  groupBy: readonly string[];
}

const narrowing = (p: GroupParams) => ({
  projectName: p.projectName,
  groupBy: p.groupBy,
  search: p.search || undefined,
  tags: p.tags,
  status: p.status,
  filter: p.filter?.trim() ? p.filter : undefined,
});

/** What a groups read adds besides `metrics`: which summaries of them (default last) and config keys' values. */
export interface GroupExtras {
  summaries?: readonly ('last' | 'min' | 'max' | 'mean')[];
  configKeys?: readonly string[];
}

/** `GET /api/runs/groups` with the summaries of `metrics` (at most 20) and the values of `configKeys` (at most 100). */
export const runGroupsQuery = (params: GroupParams, metrics: readonly string[], extras: GroupExtras = {}) =>
  queryOptions({
    queryKey: ['run-groups', params, metrics, extras],
    queryFn: ({ signal }) =>
      apiGet<RunGroups>(
        '/api/runs/groups',
        {
          ...narrowing(params),
          metrics: metrics.slice(0, 20),
          // Only last (the default) is not sent, so the plain request stays as it was.
          summaries: extras.summaries?.join() === 'last' ? undefined : extras.summaries,
          configKeys: extras.configKeys?.slice(0, 100),
        },
        signal,
      ),
  });

/** `GET /api/runs/groups/metrics` of `logName`, at most `limit` buckets over the step window. */
export const groupMetricsQuery = (
  params: GroupParams,
  logName: string,
  limit: number,
  stepMin?: number,
  stepMax?: number,
) =>
  queryOptions({
    queryKey: ['run-groups-metrics', params, logName, limit, stepMin, stepMax],
    queryFn: ({ signal }) =>
      apiGet<GroupMetrics>(
        '/api/runs/groups/metrics',
        { ...narrowing(params), logName, limit, stepMin, stepMax },
        signal,
      ),
  });

/** The groups (nothing asked without a field), refreshed every 30 s like the table. */
export const useRunGroups = (params: GroupParams, metrics: readonly string[], extras: GroupExtras = {}) =>
  useQuery({
    ...runGroupsQuery(params, metrics, extras),
    enabled: params.groupBy.length > 0,
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });

/** How often a grouped chart near the viewport asks again (running runs add points). */
export const GROUP_CHART_POLL_MS = 15_000;

/**
 * One metric of each group over the `zoom` step window (all steps when null); nothing asked
 * while `enabled` is false (a chart not yet near the viewport), asked again every
 * GROUP_CHART_POLL_MS while `poll`.
 */
export const useGroupMetrics = (
  params: GroupParams,
  logName: string,
  limit: number,
  zoom: { min: number; max: number } | null,
  enabled: boolean,
  poll: boolean,
) =>
  useQuery({
    ...groupMetricsQuery(params, logName, limit, zoom?.min, zoom?.max),
    enabled: enabled && params.groupBy.length > 0,
    placeholderData: keepPreviousData,
    refetchInterval: poll ? GROUP_CHART_POLL_MS : false,
    refetchIntervalInBackground: false,
  });
