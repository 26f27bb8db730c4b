/**
 * Alert rules as the API manages them, and their check on each ingested batch of points
 * (docs/api.md §15). The check reads only the batch's points of metrics that have rules
 * (rules are cached per project for RULES_TTL_MS) and writes only at a crossing.
 */
import {
  checkPoints,
  describeRule,
  freshState,
  type AlertRule,
  type AlertRuleKind,
  type Crossing,
  type RuleState,
} from '../domain/alert-rules.js';
import type { PackedPoints } from '../domain/packed-points.js';
import type { RunTarget } from '../domain/types.js';
import { badRequest, conflict, notFound } from '../errors.js';
import type { Ctx } from '../services/context.js';
import { checkLogName } from '../services/files.js';
import type { EventStore } from '../store/event-store.js';

/** Most rules a project may have. */
export const MAX_RULES = 100;
/** Another server's new or deleted rule is seen within this many ms. */
const RULES_TTL_MS = 5_000;
/** Run states kept in memory per process before the map is started afresh. */
const MAX_STATES = 100_000;

/** What POST /api/alert-rules takes. */
export interface AlertRuleInput {
  projectName: string;
  logName: string;
  kind: AlertRuleKind;
  threshold?: number | undefined;
  steps?: number | undefined;
  goal?: 'min' | 'max' | undefined;
}

interface ProjectRules {
  byName: Map<string, AlertRule[]>;
  at: number;
}

/** Per event store: rules by project, and each (rule, run) state this process has seen. */
class RuleCache {
  readonly projects = new Map<number, ProjectRules>();
  readonly states = new Map<string, RuleState & { known: boolean }>();

  async rulesOf(events: EventStore, projectId: number): Promise<Map<string, AlertRule[]>> {
    const cached = this.projects.get(projectId);
    if (cached && Date.now() - cached.at < RULES_TTL_MS) return cached.byName;
    const byName = new Map<string, AlertRule[]>();
    for (const rule of await events.listAlertRules(projectId, MAX_RULES)) {
      byName.set(rule.logName, [...(byName.get(rule.logName) ?? []), rule]);
    }
    if (this.projects.size > 10_000) this.projects.clear();
    this.projects.set(projectId, { byName, at: Date.now() });
    return byName;
  }

  stateOf(ruleId: number, runId: number): RuleState & { known: boolean } {
    const key = `${ruleId}:${runId}`;
    let state = this.states.get(key);
    if (!state) {
      if (this.states.size >= MAX_STATES) this.states.clear();
      this.states.set(key, (state = { ...freshState(), known: false }));
    }
    return state;
  }
}

const caches = new WeakMap<EventStore, RuleCache>();
function cacheOf(events: EventStore): RuleCache {
  let cache = caches.get(events);
  if (!cache) caches.set(events, (cache = new RuleCache()));
  return cache;
}

function checkInput(r: AlertRuleInput): void {
  checkLogName(r.logName);
  if ((r.kind === 'above' || r.kind === 'below') && (r.threshold === undefined || !Number.isFinite(r.threshold))) {
    throw badRequest(`a rule of kind ${r.kind} needs a finite threshold`);
  }
  if (r.kind === 'no_improvement' && r.steps === undefined) {
    throw badRequest('a rule of kind no_improvement needs steps');
  }
}

/** Creates a rule on an existing project; throws BAD_REQUEST, NOT_FOUND, CONFLICT past MAX_RULES. */
export async function createAlertRule(ctx: Ctx, input: AlertRuleInput): Promise<AlertRule & { projectName: string }> {
  checkInput(input);
  const { orgId, userId } = ctx.principal;
  const project = await ctx.deps.metadata.findProject(orgId, input.projectName);
  if (!project) throw notFound(`project ${JSON.stringify(input.projectName)} not found`);
  const events = ctx.deps.events;
  if ((await events.listAlertRules(project.id, MAX_RULES)).length >= MAX_RULES) {
    throw conflict(`a project has at most ${MAX_RULES} alert rules; delete one first`);
  }
  const at = Date.now();
  const rule = {
    orgId,
    projectId: project.id,
    logName: input.logName,
    kind: input.kind,
    threshold: input.kind === 'above' || input.kind === 'below' ? input.threshold! : null,
    steps: input.kind === 'no_improvement' ? input.steps! : null,
    goal: input.kind === 'no_improvement' ? (input.goal ?? 'min') : null,
  };
  const id = await events.createAlertRule({ ...rule, createdBy: userId, at });
  cacheOf(events).projects.delete(project.id);
  return { ...rule, id, createdAt: at, projectName: project.name };
}

/** A project's rules, oldest first; throws NOT_FOUND for an unknown project. */
export async function listAlertRules(ctx: Ctx, projectName: string): Promise<AlertRule[]> {
  const project = await ctx.deps.metadata.findProject(ctx.principal.orgId, projectName);
  if (!project) throw notFound(`project ${JSON.stringify(projectName)} not found`);
  return ctx.deps.events.listAlertRules(project.id, MAX_RULES);
}

/** Deletes a rule; throws NOT_FOUND. */
export async function deleteAlertRule(ctx: Ctx, id: number): Promise<void> {
  const events = ctx.deps.events;
  if (!(await events.deleteAlertRule(ctx.principal.orgId, id))) throw notFound(`alert rule ${id} not found`);
  cacheOf(events).projects.clear();
}

/** The steps and values of each metric of the batch that has rules, by name index. */
function pointsByName(
  points: PackedPoints,
  wanted: readonly boolean[],
): Map<number, { steps: number[]; values: number[] }> {
  const out = new Map<number, { steps: number[]; values: number[] }>();
  const { cols } = points;
  for (let k = 0; k < cols.length; k += 4) {
    const name = cols[k]!;
    if (!wanted[name]) continue;
    let series = out.get(name);
    if (!series) out.set(name, (series = { steps: [], values: [] }));
    series.steps.push(cols[k + 1]!);
    series.values.push(cols[k + 3]!);
  }
  return out;
}

/**
 * Checks a batch of a run's points against its project's rules before the batch is stored
 * (the points are handed to the writer afterwards); returns what to record once it is
 * stored (crossings, states no longer firing), or undefined when there is nothing to do.
 */
export async function watchMetrics(
  ctx: Ctx,
  run: RunTarget,
  points: PackedPoints,
): Promise<(() => Promise<void>) | undefined> {
  const events = ctx.deps.events;
  const cache = cacheOf(events);
  const byName = await cache.rulesOf(events, run.projectId);
  if (byName.size === 0) return undefined;
  const wanted = points.names.map((name) => byName.has(name));
  if (!wanted.includes(true)) return undefined;
  const work: (() => Promise<unknown>)[] = [];
  for (const [index, series] of pointsByName(points, wanted)) {
    for (const rule of byName.get(points.names[index]!)!) {
      const state = cache.stateOf(rule.id, run.id);
      const wasFiring = state.firing || !state.known;
      const crossing: Crossing | undefined = checkPoints(rule, state, series.steps, series.values);
      state.known = true;
      if (crossing?.afterFall) work.push(() => events.resetAlertRule(rule.id, run.id));
      if (crossing) work.push(() => trigger(events, rule, run.id, crossing, state.firing));
      else if (wasFiring && !state.firing) work.push(() => events.resetAlertRule(rule.id, run.id));
    }
  }
  if (work.length === 0) return undefined;
  return async () => {
    for (const w of work) await w();
  };
}

function trigger(events: EventStore, rule: AlertRule, runId: number, c: Crossing, firingAfter: boolean) {
  const title = describeRule(rule);
  const text = `${rule.logName} was ${c.value} at step ${c.step}`;
  return events.triggerAlertRule({
    rule,
    runId,
    title,
    text,
    step: c.step,
    value: c.value,
    firingAfter,
    at: Date.now(),
  });
}
