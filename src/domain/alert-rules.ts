/**
 * Alert rules of a project (issue 31): a metric above or below a threshold, a non-finite
 * value, or no improvement for N steps. Checked on each batch of points as it is ingested;
 * a rule fires once per crossing (again only after its condition stopped holding).
 */

export const ALERT_RULE_KINDS = ['above', 'below', 'non_finite', 'no_improvement'] as const;
export type AlertRuleKind = (typeof ALERT_RULE_KINDS)[number];

/** A stored rule. */
export interface AlertRule {
  id: number;
  orgId: number;
  projectId: number;
  logName: string;
  kind: AlertRuleKind;
  /** The bound of `above` / `below`. */
  threshold: number | null;
  /** `no_improvement`: steps without a new best that trigger it. */
  steps: number | null;
  /** `no_improvement`: whether lower (`min`) or higher (`max`) is better. */
  goal: 'min' | 'max' | null;
  createdAt: number;
}

/** What createAlertRule stores. */
export type NewAlertRule = Omit<AlertRule, 'id' | 'createdAt'> & { createdBy: number | null; at: number };

/** A rule's state for one run, as the checker keeps it. */
export interface RuleState {
  firing: boolean;
  best: number;
  bestStep: number;
}

/** A point where a rule started to hold. */
export interface Crossing {
  step: number;
  value: number;
  /** The batch had a point before it where the rule did not hold (a stored firing state is stale). */
  afterFall: boolean;
}

/** The rule in a few words: `val/loss > 5`, `val/loss is not finite`, `val/acc: no new max for 100 steps`. */
export function describeRule(r: Pick<AlertRule, 'logName' | 'kind' | 'threshold' | 'steps' | 'goal'>): string {
  switch (r.kind) {
    case 'above':
      return `${r.logName} > ${r.threshold}`;
    case 'below':
      return `${r.logName} < ${r.threshold}`;
    case 'non_finite':
      return `${r.logName} is not finite`;
    case 'no_improvement':
      return `${r.logName}: no new ${r.goal ?? 'min'} for ${r.steps} steps`;
  }
}

/** Whether one point makes the rule hold, updating the state's best (no_improvement). */
function holds(rule: AlertRule, state: RuleState, step: number, value: number): boolean {
  switch (rule.kind) {
    case 'above':
      return value > rule.threshold!;
    case 'below':
      return value < rule.threshold!;
    case 'non_finite':
      return !Number.isFinite(value);
    case 'no_improvement': {
      if (!Number.isFinite(value)) return step - state.bestStep >= rule.steps!;
      const better = rule.goal === 'max' ? value > state.best : value < state.best;
      if (better || !Number.isFinite(state.best)) {
        state.best = value;
        state.bestStep = step;
        return false;
      }
      return step - state.bestStep >= rule.steps!;
    }
  }
}

/**
 * Checks a run's points of the rule's metric (in batch order) against the rule, updating
 * `state`; returns the first point where it started to hold while not firing, if any.
 */
export function checkPoints(
  rule: AlertRule,
  state: RuleState,
  steps: readonly number[],
  values: readonly number[],
): Crossing | undefined {
  let crossing: Crossing | undefined;
  let fell = false;
  for (let i = 0; i < steps.length; i++) {
    const now = holds(rule, state, steps[i]!, values[i]!);
    if (now && !state.firing && crossing === undefined)
      crossing = { step: steps[i]!, value: values[i]!, afterFall: fell };
    if (!now) fell = true;
    state.firing = now;
  }
  return crossing;
}

/** A fresh state: not firing, no best yet. */
export const freshState = (): RuleState => ({ firing: false, best: NaN, bestStep: 0 });
