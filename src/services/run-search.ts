/**
 * Run search (`GET /api/runs/list`): a project's runs filtered by name, tags, statuses and
 * the filter language, sorted and paged, optionally with metric summaries per run.
 */
import { parseFilter } from '../domain/run-filter-parse.js';
import { parseSort } from '../domain/run-fields.js';
import type { FilterNode, SearchSort } from '../domain/run-search.js';
import { RUN_STATUSES, type RunHead, type SeriesSummary } from '../domain/types.js';
import { badRequest } from '../errors.js';
import type { RunSearchQuery } from '../store/metadata-store.js';
import type { Ctx } from './context.js';
import {
  type ForkValues,
  filterMetricNames,
  forkValues,
  pageByMetric,
  resolveMetricConditions,
  runSummaries,
} from './run-search-metrics.js';

/** Most metrics one search may filter and sort on together. */
export const MAX_SEARCH_METRICS = 10;
/** Most metrics `metrics=` may ask summaries of. */
export const MAX_SUMMARY_METRICS = 20;

/** The parameters that narrow a search to some of a project's runs (docs/api.md §9). */
export interface RunNarrowingParams {
  search?: string;
  tags?: string;
  status?: string;
  filter?: string;
}

export interface RunSearchParams extends RunNarrowingParams {
  projectName: string;
  limit: number;
  offset: number;
  sort?: string;
  metrics?: string;
}

export interface RunSearchRow {
  /** The run without its JSON fields (runs/list reads its config apart, bounded: services/run-list.ts). */
  run: RunHead;
  /** The summaries of the metrics `metrics` named (those the run has); undefined when none were named. */
  summaries: SeriesSummary[] | undefined;
}

/** The non-empty, trimmed, distinct items of a comma-separated list. */
export const listOf = (text: string | undefined): string[] => [
  ...new Set(
    (text ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  ),
];

/** The filter of the plain parameters (statuses, tags) AND the `filter` parameter. */
function combinedFilter(p: RunNarrowingParams): FilterNode | undefined {
  const parts: FilterNode[] = [];
  const statuses = listOf(p.status).map((s) => s.toUpperCase());
  const unknown = statuses.find((s) => !(RUN_STATUSES as readonly string[]).includes(s));
  if (unknown !== undefined)
    throw badRequest(`status ${JSON.stringify(unknown)} is not one of ${RUN_STATUSES.join(', ')}`);
  if (statuses.length > 0)
    parts.push({ kind: 'leaf', field: { kind: 'status' }, cond: { op: 'in', values: statuses } });
  const tags = listOf(p.tags);
  if (tags.length > 100) throw badRequest('tags may list at most 100 tags');
  if (tags.length > 0) parts.push({ kind: 'leaf', field: { kind: 'tags' }, cond: { op: 'in', values: tags } });
  const filter = parseFilter(p.filter);
  if (filter) parts.push(filter);
  return parts.length === 0 ? undefined : parts.length === 1 ? parts[0] : { kind: 'and', nodes: parts };
}

/** A search's checked narrowing: its filter tree, name substring and the metrics its filter reads. */
export interface RunNarrowing {
  filter: FilterNode | undefined;
  /** ASCII letters already lower case. */
  nameContains: string | undefined;
  metricNames: Set<string>;
}

/**
 * The narrowing of the parameters, checked, with `sortMetric` counted among its metrics.
 * Throws BAD_REQUEST for a bad filter, status or tag list, or too many metrics.
 */
export function parseNarrowing(p: RunNarrowingParams, sortMetric?: string): RunNarrowing {
  const filter = combinedFilter(p);
  const metricNames = filterMetricNames(filter);
  if (sortMetric !== undefined) metricNames.add(sortMetric);
  if (metricNames.size > MAX_SEARCH_METRICS) {
    throw badRequest(`a search may filter and sort on at most ${MAX_SEARCH_METRICS} metrics`);
  }
  const nameContains = p.search ? p.search.replace(/[A-Z]/g, (c) => c.toLowerCase()) : undefined;
  return { filter, nameContains, metricNames };
}

/** Whether a narrowing keeps only some runs (false: every run of the project matches). */
export const narrows = (n: RunNarrowing): boolean => n.filter !== undefined || n.nameContains !== undefined;

/** The store query of a narrowing in a project (metric conditions resolved), and the project's fork values. */
async function storeQuery(
  ctx: Ctx,
  projectId: number,
  n: RunNarrowing,
): Promise<{ base: Omit<RunSearchQuery, 'page'>; forks: ForkValues }> {
  const forks = await forkValues(ctx, projectId, [...n.metricNames]);
  const filter = n.filter && (await resolveMetricConditions(ctx, n.filter, projectId, forks));
  return { base: { orgId: ctx.principal.orgId, projectId, filter, nameContains: n.nameContains }, forks };
}

/**
 * Ids of the project's runs that match a narrowing, in no promised order, and how many
 * match. Reads at most `max` + 1 ids: when more match, `ids` is cut short and `total` says
 * how many. Throws what the store's search throws (QUERY_TIMEOUT, OVERLOADED).
 */
export async function matchingRunIds(
  ctx: Ctx,
  projectId: number,
  n: RunNarrowing,
  max: number,
): Promise<{ ids: number[]; total: number }> {
  const { base } = await storeQuery(ctx, projectId, n);
  return ctx.deps.metadata.searchRuns({ ...base, page: { sort: parseSort(undefined), limit: max + 1, offset: 0 } });
}

/**
 * A page of a project's matching runs in the sort order, and how many match in all. An
 * unknown project has none. Throws BAD_REQUEST for a bad sort, filter, status or list.
 */
export async function searchRuns(ctx: Ctx, p: RunSearchParams): Promise<{ rows: RunSearchRow[]; total: number }> {
  const sort: SearchSort = parseSort(p.sort);
  const narrowing = parseNarrowing(p, sort.field.kind === 'metric' ? sort.field.name : undefined);
  const summaryNames = listOf(p.metrics);
  if (summaryNames.length > MAX_SUMMARY_METRICS) throw badRequest(`metrics may name at most ${MAX_SUMMARY_METRICS}`);
  const { metadata } = ctx.deps;
  const projectId = await metadata.findProjectId(ctx.principal.orgId, p.projectName);
  if (projectId === undefined) return { rows: [], total: 0 };
  const { base, forks } = await storeQuery(ctx, projectId, narrowing);
  let ids: number[];
  let total: number;
  if (sort.field.kind === 'metric') {
    const all = await metadata.searchRuns({ ...base, page: undefined });
    total = all.total;
    ids = await pageByMetric(ctx, projectId, sort.field, all.ids, forks, {
      ...sort,
      limit: p.limit,
      offset: p.offset,
    });
  } else {
    ({ ids, total } = await metadata.searchRuns({ ...base, page: { sort, limit: p.limit, offset: p.offset } }));
  }
  const runs = await metadata.listRunHeads(ctx.principal.orgId, ids);
  const summaries = summaryNames.length > 0 ? await runSummaries(ctx, runs, summaryNames) : undefined;
  return { rows: runs.map((run) => ({ run, summaries: summaries?.get(run.id) })), total };
}
