/**
 * Run grouping (GET /api/runs/groups, docs/api.md §13): a project's runs, narrowed as run
 * search narrows them, grouped by one to three fields, groups ordered by key, each with its
 * run count, at most MAX_GROUP_RUN_IDS of its run ids and optional metric summaries.
 */
import {
  compareGroupKeys,
  type GroupField,
  groupTagOf,
  type GroupValue,
  groupValueOf,
  parseGroupBy,
} from '../domain/group-by.js';
import { badRequest, resultTooLarge } from '../errors.js';
import type { JsonPick } from '../store/metadata-store.js';
import type { Ctx } from './context.js';
import { MAX_NARROWED_RUNS } from './metric-rankings.js';
import {
  type ConfigKey,
  checkConfigCells,
  configValuesBytes,
  configValuesOf,
  parseGroupConfigKeys,
  type ValueSet,
} from './run-group-configs.js';
import { groupSummaryFields, parseSummaries, runValues } from './run-group-summaries.js';
import { listOf, MAX_SUMMARY_METRICS, matchingRunIds, parseNarrowing, type RunNarrowingParams } from './run-search.js';

/** Run ids listed per group at most (its runCount is exact). */
export const MAX_GROUP_RUN_IDS = 1000;

export interface GroupsParams extends RunNarrowingParams {
  projectName: string;
  groupBy: string;
  metrics?: string;
  summaries?: string;
  configKeys?: string;
}

/** A group of runs: its key by field name, its runs (ascending ids, forks marked), all of them. */
export interface Grouped {
  key: Record<string, GroupValue>;
  values: GroupValue[];
  runIds: number[];
  forkIds: Set<number>;
  /** For each config key asked for, the distinct values of the group's runs. */
  configSets: ValueSet[];
}

/** The project's matching runs grouped by key, ordered by key; undefined for an unknown project. */
export async function groupMatchingRuns(
  ctx: Ctx,
  q: RunNarrowingParams & { projectName: string },
  fields: readonly GroupField[],
  maxRuns: number,
  configKeys: readonly ConfigKey[] = [],
): Promise<{ projectId: number; groups: Grouped[] } | undefined> {
  const narrowing = parseNarrowing(q);
  const { metadata } = ctx.deps;
  const projectId = await metadata.findProjectId(ctx.principal.orgId, q.projectName);
  if (projectId === undefined) return undefined;
  const matching = await matchingRunIds(ctx, projectId, narrowing, maxRuns);
  if (matching.total > maxRuns) {
    throw resultTooLarge(
      `${matching.total.toLocaleString('en-US')} runs match the filters and one grouping reads at most ` +
        `${maxRuns.toLocaleString('en-US')}: narrow them with filter, search, tags or status`,
    );
  }
  checkConfigCells(configKeys.length, matching.ids.length);
  const picks: JsonPick[] = fields.flatMap((f) =>
    f.kind === 'config' || f.kind === 'systemMetadata' ? [{ field: f.kind, path: f.path }] : [],
  );
  const fieldPicks = picks.length;
  picks.push(...configKeys.map((k): JsonPick => ({ field: 'config', path: k.path })));
  const rows = await metadata.listGroupValues(ctx.principal.orgId, matching.ids, picks);
  const byKey = new Map<string, Grouped>();
  for (const row of rows.sort((a, b) => a.runId - b.runId)) {
    let pick = 0;
    const values = fields.map((f): GroupValue => {
      if (f.kind === 'status') return row.status;
      if (f.kind === 'group') return groupTagOf(row.tags);
      return groupValueOf(row.texts[pick++] ?? null);
    });
    const id = JSON.stringify(values);
    let group = byKey.get(id);
    if (!group) {
      const key = Object.fromEntries(fields.map((f, i) => [f.name, values[i]!]));
      const configSets = configKeys.map((): ValueSet => new Map());
      byKey.set(id, (group = { key, values, runIds: [], forkIds: new Set(), configSets }));
    }
    group.configSets.forEach((set, i) => {
      const value = groupValueOf(row.texts[fieldPicks + i] ?? null);
      set.set(JSON.stringify(value), value);
    });
    group.runIds.push(row.runId);
    if (row.forkedFromRunId !== null) group.forkIds.add(row.runId);
  }
  const groups = [...byKey.values()].sort((a, b) => compareGroupKeys(a.values, b.values));
  return { projectId, groups };
}

/** Bytes a group takes in the answer besides its key and ids, and per metric and summary asked. */
const GROUP_BYTES = 64;
const SUMMARY_BYTES = 160;

/** RESULT_TOO_LARGE unless the groups' answer (keys, listed ids, `summaries` summaries of each metric, config values) fits config.readMaxBytes. */
function checkGroupsBytes(ctx: Ctx, groups: readonly Grouped[], summaries: number): void {
  let bytes = 0;
  for (const g of groups) {
    for (const set of g.configSets) bytes += configValuesBytes(set);
    bytes += GROUP_BYTES + Buffer.byteLength(JSON.stringify(g.key)) + 17 * Math.min(g.runIds.length, MAX_GROUP_RUN_IDS);
    bytes += summaries * SUMMARY_BYTES;
  }
  const max = ctx.deps.config.readMaxBytes;
  if (bytes > max) {
    throw resultTooLarge(
      `these ${groups.length} groups would answer about ${(bytes / 2 ** 20).toFixed(1)} MB, more than the ` +
        `${(max / 2 ** 20).toFixed(1)} MB one read may answer (STEPWISE_READ_MAX_BYTES); group by fewer or ` +
        'smaller fields, ask for fewer metrics, or narrow the runs with filter, search, tags or status',
    );
  }
}

/**
 * The project's matching runs grouped by key (an unknown project has none). Throws
 * BAD_REQUEST for a bad groupBy, narrowing, metrics or summaries list, RESULT_TOO_LARGE when more than
 * MAX_NARROWED_RUNS runs match or the answer would pass config.readMaxBytes, and QUERY_TIMEOUT / OVERLOADED as run search does.
 */
export async function groupRuns(ctx: Ctx, q: GroupsParams) {
  const fields = parseGroupBy(q.groupBy);
  const names = listOf(q.metrics);
  if (names.length > MAX_SUMMARY_METRICS) throw badRequest(`metrics may name at most ${MAX_SUMMARY_METRICS}`);
  const aggs = parseSummaries(q.summaries);
  const configKeys = parseGroupConfigKeys(q.configKeys);
  const grouped = await groupMatchingRuns(ctx, q, fields, MAX_NARROWED_RUNS, configKeys);
  const head = { projectName: q.projectName, groupBy: fields.map((f) => f.name) };
  if (!grouped) return { ...head, groups: [], total: 0 };
  checkGroupsBytes(ctx, grouped.groups, names.length * aggs.length);
  const { projectId, groups: all } = grouped;
  const forkIds = new Set(all.flatMap((g) => [...g.forkIds]));
  const runIds = all.flatMap((g) => g.runIds);
  const values = names.length > 0 ? await runValues(ctx, projectId, runIds, forkIds, names, aggs) : undefined;
  const groups = all.map((g) => ({
    key: g.key,
    runCount: g.runIds.length,
    runIds: g.runIds.slice(0, MAX_GROUP_RUN_IDS),
    ...(values && groupSummaryFields(values, g.runIds, names)),
    ...(configKeys.length > 0 && { configValues: configValuesOf(configKeys, g.configSets) }),
  }));
  return { ...head, groups, total: groups.length };
}
