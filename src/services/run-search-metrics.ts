/**
 * The metric side of run search. Summaries live in the series store (on the embedded
 * engine, another file), so a metric condition or sort is resolved here: the metric's last
 * (or min, max, mean) values for the whole project are read from the stored summaries (one
 * index range), forks are replaced by their effective summaries (their series include their
 * lineage's points), and each metric condition becomes the set of run ids it matches.
 */
import type { Condition, FilterNode, MetricAgg } from '../domain/run-search.js';
import type { LineageLink, Run, SeriesSummary } from '../domain/types.js';
import { type Ctx, MAX_LINEAGE_DEPTH } from './context.js';

/** Forks of a project with the effective summary of each named metric. */
export interface ForkValues {
  ids: Set<number>;
  /** By metric name, then fork id; forks without a point of the metric are absent. */
  summaries: Map<string, Map<number, SeriesSummary>>;
}

/** A summary's finite `agg` value (min, max and mean are of the finite values), or undefined. */
function summaryValue(s: SeriesSummary, agg: MetricAgg): number | undefined {
  const v = agg === 'last' ? s.lastValue : s.count === 0 ? null : s[agg];
  return v !== null && Number.isFinite(v) ? v : undefined;
}

/** The finite `agg` values of one metric by fork id; forks without one are absent. */
function forkValuesOf(forks: ForkValues, name: string, agg: MetricAgg): Map<number, number> {
  const out = new Map<number, number>();
  for (const [forkId, s] of forks.summaries.get(name) ?? []) {
    const v = summaryValue(s, agg);
    if (v !== undefined) out.set(forkId, v);
  }
  return out;
}

/**
 * The project's forks and their effective summaries of the named metrics (their series
 * include their lineage's points, so stored summaries do not describe them): one lineage
 * and one summary read per fork, nothing when no metric is named.
 */
export async function forkValues(ctx: Ctx, projectId: number, names: readonly string[]): Promise<ForkValues> {
  const { metadata, series } = ctx.deps;
  const out: ForkValues = { ids: new Set(), summaries: new Map(names.map((n) => [n, new Map()])) };
  if (names.length === 0) return out;
  for (const forkId of await metadata.listForkedRunIds(projectId)) {
    out.ids.add(forkId);
    const lineage = await metadata.getLineage(ctx.principal.orgId, forkId, MAX_LINEAGE_DEPTH);
    for (const s of await series.summarize(lineage, names)) out.summaries.get(s.logName)?.set(forkId, s);
  }
  return out;
}

/** Whether a metric's value (undefined: the run has none) satisfies a condition. */
function satisfies(v: number | undefined, cond: Condition): boolean {
  const eq = (x: unknown) => (x === null ? v === undefined : v === x);
  switch (cond.op) {
    case 'eq':
      return eq(cond.value);
    case 'in':
      return cond.values.some(eq);
    case 'exists':
      return v !== undefined;
    case 'regex':
      return false;
    case 'gt':
      return typeof cond.value === 'number' && v !== undefined && v > cond.value;
    case 'gte':
      return typeof cond.value === 'number' && v !== undefined && v >= cond.value;
    case 'lt':
      return typeof cond.value === 'number' && v !== undefined && v < cond.value;
    case 'lte':
      return typeof cond.value === 'number' && v !== undefined && v <= cond.value;
  }
}

/** Names of the metrics a filter's conditions look at. */
export function filterMetricNames(node: FilterNode | undefined, into = new Set<string>()): Set<string> {
  if (!node) return into;
  if (node.kind === 'and' || node.kind === 'or') for (const n of node.nodes) filterMetricNames(n, into);
  else if (node.kind === 'not') filterMetricNames(node.node, into);
  else if (node.kind === 'leaf' && node.field.kind === 'metric') into.add(node.field.name);
  return into;
}

/**
 * The filter with each metric condition replaced by the runs it matches: the ids of runs
 * whose value satisfies it, or, when a missing value satisfies it ($exists: false, null,
 * $ne, $nin), NOT the ids of runs whose value does not. Unforked runs are read from the
 * series store's index (one range per condition), forks from their effective values.
 */
export async function resolveMetricConditions(
  ctx: Ctx,
  node: FilterNode,
  projectId: number,
  forks: ForkValues,
): Promise<FilterNode> {
  switch (node.kind) {
    case 'and':
    case 'or':
      return {
        kind: node.kind,
        nodes: await Promise.all(node.nodes.map((n) => resolveMetricConditions(ctx, n, projectId, forks))),
      };
    case 'not':
      return { kind: 'not', node: await resolveMetricConditions(ctx, node.node, projectId, forks) };
    case 'ids':
      return node;
    case 'leaf': {
      if (node.field.kind !== 'metric') return node;
      const { name, agg } = node.field;
      const negate = satisfies(undefined, node.cond);
      const own = await ctx.deps.series.projectRunsByValue(projectId, name, agg, node.cond, negate);
      const ids = own.filter((id) => !forks.ids.has(id));
      const values = forkValuesOf(forks, name, agg);
      for (const forkId of forks.ids) {
        const v = values.get(forkId);
        if (v !== undefined && satisfies(v, node.cond) !== negate) ids.push(forkId);
      }
      const set: FilterNode = { kind: 'ids', ids };
      return negate ? { kind: 'not', node: set } : set;
    }
  }
}

/**
 * One page of `matching` run ids ordered by a metric's `agg` value (runs without one last,
 * ties by id, both in the sort's direction). Walks the metric's values in order in growing
 * chunks until the page is full, so a first page reads about as many values as it shows
 * over the matching share of the project; forks are merged in by their effective values.
 */
export async function pageByMetric(
  ctx: Ctx,
  projectId: number,
  field: { name: string; agg: MetricAgg },
  matching: readonly number[],
  forks: ForkValues,
  sort: { descending: boolean; limit: number; offset: number },
): Promise<number[]> {
  const wanted = new Set(matching);
  const need = sort.offset + sort.limit;
  const sign = sort.descending ? -1 : 1;
  const ordered: [number, number][] = [];
  let exhausted = false;
  for (let read = 0, chunk = Math.max(256, 2 * need); ordered.length < need; chunk *= 2) {
    const rows = await ctx.deps.series.projectValues(projectId, field.name, field.agg, sort.descending, chunk, read);
    read += rows.length;
    for (const row of rows) if (wanted.has(row[0]) && !forks.ids.has(row[0])) ordered.push(row);
    if (rows.length < chunk) {
      exhausted = true;
      break;
    }
  }
  const forked = forkValuesOf(forks, field.name, field.agg);
  for (const [forkId, v] of forked) if (wanted.has(forkId)) ordered.push([forkId, v]);
  ordered.sort((a, b) => (a[1] === b[1] ? sign * (a[0] - b[0]) : sign * (a[1] - b[1])));
  const ids = ordered.map((r) => r[0]);
  if (exhausted && ids.length < need) {
    const valued = new Set(ids);
    const missing = matching.filter((id) => !valued.has(id));
    ids.push(...missing.sort((a, b) => sign * (a - b)));
  }
  return ids.slice(sort.offset, need);
}

/** One metric's summary as run search shows it. */
/** Summaries of the named metrics for each run (forks by their effective series), by run id. */
export async function runSummaries(
  ctx: Ctx,
  runs: readonly Pick<Run, 'id' | 'forkedFromRunId'>[],
  names: readonly string[],
): Promise<Map<number, SeriesSummary[]>> {
  const out = new Map<number, SeriesSummary[]>();
  await Promise.all(
    runs.map(async (run) => {
      const lineage: LineageLink[] =
        run.forkedFromRunId === null
          ? [{ runId: run.id, maxStep: Infinity }]
          : await ctx.deps.metadata.getLineage(ctx.principal.orgId, run.id, MAX_LINEAGE_DEPTH);
      out.set(run.id, await ctx.deps.series.summarize(lineage, names));
    }),
  );
  return out;
}
