/**
 * Alert rules as the API manages them, and their check on each ingested batch of points
 * (docs/api.md §15). The check reads only the batch's points of metrics that have rules
 * (rules are cached per project for RULES_TTL_MS, states per run in memory) and writes only
 * at a crossing.
 */
import {
  batchBounds,
  checkPoint,
  describeRule,
  holdsNowhere,
  mayHold,
  type BatchBounds,
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
  readonly states = new Map<string, RuleState>();

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

  stateOf(ruleId: number, runId: number): RuleState {
    const key = `${ruleId}:${runId}`;
    let state = this.states.get(key);
    if (!state) {
      if (this.states.size >= MAX_STATES) this.states.clear();
      this.states.set(key, (state = freshState()));
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
  const projectId = await ctx.deps.metadata.findProjectId(ctx.principal.orgId, projectName);
  if (projectId === undefined) throw notFound(`project ${JSON.stringify(projectName)} not found`);
  return ctx.deps.events.listAlertRules(projectId, MAX_RULES);
}

/** Deletes a rule; throws NOT_FOUND. */
export async function deleteAlertRule(ctx: Ctx, id: number): Promise<void> {
  const events = ctx.deps.events;
  if (!(await events.deleteAlertRule(ctx.principal.orgId, id))) throw notFound(`alert rule ${id} not found`);
  cacheOf(events).projects.clear();
}

/** A rule with its state for the run being checked, and the batch's first crossing. */
interface Check {
  rule: AlertRule;
  state: RuleState;
  crossing: Crossing | undefined;
}

/** Checks each point of metric `i` of the batch against the rule, in order; returns the first crossing. */
function scanPoints(c: Check, i: number, cols: Float64Array): Crossing | undefined {
  let first: Crossing | undefined;
  for (let k = 0; k < cols.length; k += 4) {
    if (cols[k] !== i) continue;
    const crossed = checkPoint(c.rule, c.state, cols[k + 1]!, cols[k + 3]!);
    if (crossed && !first) first = crossed;
  }
  return first;
}

/**
 * Checks a batch of a run's points against its project's rules before the batch is stored
 * (the points are handed to the writer afterwards). One pass over the batch finds each
 * metric's bounds (batchBounds); only a rule that some point may make hold (mayHold) looks
 * at its metric's points one by one, the others just note that the rule does not hold.
 * Returns what to record once the batch is stored (each rule's first crossing), or undefined
 * when nothing crossed.
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
  const { names, cols } = points;
  let bounds: BatchBounds | undefined;
  const crossings: Check[] = [];
  for (let i = 0; i < names.length; i++) {
    const rules = byName.get(names[i]!);
    if (!rules) continue;
    bounds ??= batchBounds(names.length, cols);
    for (const rule of rules) {
      const state = cache.stateOf(rule.id, run.id);
      if (!mayHold(rule, bounds, i)) {
        holdsNowhere(state);
        continue;
      }
      const check: Check = { rule, state, crossing: undefined };
      check.crossing = scanPoints(check, i, cols);
      if (check.crossing) crossings.push(check);
    }
  }
  if (crossings.length === 0) return undefined;
  return async () => {
    for (const c of crossings) {
      if (c.crossing!.clearFirst) await events.resetAlertRule(c.rule.id, run.id);
      await trigger(events, c.rule, run.id, c.crossing!, c.state.firing);
    }
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
