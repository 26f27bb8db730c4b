/**
 * The metric side of run search. Summaries live in the series store (on the embedded
 * engine, another file), so a metric condition or sort is resolved here: the metric's last
 * values for the whole project are read from the stored summaries (one index range), forks
 * are replaced by their effective summaries (their series include their lineage's points),
 * and each metric condition becomes the set of run ids it matches.
 */
import type { Condition, FilterNode } from '../domain/run-search.js';
import type { LineageLink, Run } from '../domain/types.js';
import { type Ctx, MAX_LINEAGE_DEPTH } from './context.js';
import { finiteOrNull } from './metric-reads.js';

/** Last finite value of each metric, by metric name then run id (runs without one are absent). */
export type MetricValues = Map<string, Map<number, number>>;

/**
 * Last finite values of the named metrics for every run of a project; forks by their
 * effective series. Costs one stored-summary read per metric plus one lineage read per fork.
 */
export async function projectMetricValues(
  ctx: Ctx,
  projectId: number,
  names: readonly string[],
): Promise<MetricValues> {
  const { metadata, series } = ctx.deps;
  const out: MetricValues = new Map();
  for (const name of names) {
    out.set(name, new Map(await series.projectLastValues(projectId, name)));
  }
  if (names.length === 0) return out;
  for (const forkId of await metadata.listForkedRunIds(projectId)) {
    const lineage = await metadata.getLineage(ctx.principal.orgId, forkId, MAX_LINEAGE_DEPTH);
    const effective = new Map((await series.summarize(lineage, names)).map((s) => [s.logName, s.lastValue]));
    for (const name of names) {
      const v = effective.get(name);
      if (v !== null && v !== undefined && Number.isFinite(v)) out.get(name)!.set(forkId, v);
      else out.get(name)!.delete(forkId);
    }
  }
  return out;
}

/** Whether a metric's last value (undefined: the run has none) satisfies a condition. */
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
 * whose value satisfies it, or, when a missing value satisfies it ($exists: false, null),
 * NOT the ids of runs whose value does not.
 */
export function resolveMetricConditions(node: FilterNode, values: MetricValues): FilterNode {
  switch (node.kind) {
    case 'and':
    case 'or':
      return { kind: node.kind, nodes: node.nodes.map((n) => resolveMetricConditions(n, values)) };
    case 'not':
      return { kind: 'not', node: resolveMetricConditions(node.node, values) };
    case 'ids':
      return node;
    case 'leaf': {
      if (node.field.kind !== 'metric') return node;
      const byRun = values.get(node.field.name) ?? new Map<number, number>();
      const missingMatches = satisfies(undefined, node.cond);
      const ids: number[] = [];
      for (const [runId, v] of byRun) if (satisfies(v, node.cond) !== missingMatches) ids.push(runId);
      const set: FilterNode = { kind: 'ids', ids };
      return missingMatches ? { kind: 'not', node: set } : set;
    }
  }
}

/** One metric's summary as run search shows it. */
export interface MetricSummaryView {
  last: number | null;
  min: number | null;
  max: number | null;
  mean: number | null;
  count: number;
}

/** Summaries of the named metrics for each run (forks by their effective series), by run id. */
export async function runSummaries(
  ctx: Ctx,
  runs: readonly Run[],
  names: readonly string[],
): Promise<Map<number, Record<string, MetricSummaryView>>> {
  const out = new Map<number, Record<string, MetricSummaryView>>();
  await Promise.all(
    runs.map(async (run) => {
      const lineage: LineageLink[] =
        run.forkedFromRunId === null
          ? [{ runId: run.id, maxStep: Infinity }]
          : await ctx.deps.metadata.getLineage(ctx.principal.orgId, run.id, MAX_LINEAGE_DEPTH);
      const summaries = await ctx.deps.series.summarize(lineage, names);
      // fromEntries defines own properties, so a metric named __proto__ stays a plain key.
      const summary = Object.fromEntries(
        summaries.map((s): [string, MetricSummaryView] => [
          s.logName,
          {
            last: finiteOrNull(s.lastValue),
            min: finiteOrNull(s.min),
            max: finiteOrNull(s.max),
            mean: s.count > 0 ? finiteOrNull(s.mean) : null,
            count: s.count,
          },
        ]),
      );
      out.set(run.id, summary);
    }),
  );
  return out;
}
