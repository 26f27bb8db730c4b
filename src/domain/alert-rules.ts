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
  /**
   * A point where the rule did not hold came since the state was last stored: a stored
   * `firing` is stale, and the next crossing must clear it first.
   */
  fell: boolean;
  best: number;
  bestStep: number;
}

/** A point where a rule started to hold. */
export interface Crossing {
  step: number;
  value: number;
  /** The stored state must be cleared before this crossing is recorded (RuleState.fell). */
  clearFirst: boolean;
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
 * Checks one point of the rule's metric (points of a run in arrival order), updating
 * `state`; returns a Crossing when the rule starts to hold at it, else undefined.
 */
export function checkPoint(rule: AlertRule, state: RuleState, step: number, value: number): Crossing | undefined {
  const now = holds(rule, state, step, value);
  const crossed = now && !state.firing;
  state.firing = now;
  if (!now) {
    state.fell = true;
    return undefined;
  }
  if (!crossed) return undefined;
  const clearFirst = state.fell;
  state.fell = false;
  return { step, value, clearFirst };
}

/**
 * A state not seen before (a new run, or this process just started): not firing, no best
 * yet. A stored firing state is kept until a point shows the rule stopped holding.
 */
export const freshState = (): RuleState => ({ firing: false, fell: false, best: NaN, bestStep: 0 });

/**
 * Per metric of a batch (by its index in the batch's names): the largest and smallest value
 * (NaN left out) and whether a value is not finite. One pass over the batch answers, for
 * each rule on a threshold or on non-finite values, whether any point can make it hold.
 */
export interface BatchBounds {
  max: Float64Array;
  min: Float64Array;
  nonFinite: Uint8Array;
}

/** The bounds of each metric of a batch of packed points ((name index, step, time, value) each). */
export function batchBounds(names: number, cols: Float64Array): BatchBounds {
  const max = new Float64Array(names).fill(-Infinity);
  const min = new Float64Array(names).fill(Infinity);
  const nonFinite = new Uint8Array(names);
  for (let k = 0; k < cols.length; k += 4) {
    const i = cols[k]!;
    const v = cols[k + 3]!;
    if (v > max[i]!) max[i] = v;
    if (v < min[i]!) min[i] = v;
    // NaN and ±Infinity give NaN here, every finite value 0.
    if (v - v !== 0) nonFinite[i] = 1;
  }
  return { max, min, nonFinite };
}

/**
 * Whether some point of metric `i` of the batch may make the rule hold; when not, checking
 * each point would only leave the state not firing and fallen (see holdsNowhere).
 * no_improvement depends on the order of the points: always true.
 */
export function mayHold(rule: AlertRule, bounds: BatchBounds, i: number): boolean {
  switch (rule.kind) {
    case 'above':
      return bounds.max[i]! > rule.threshold!;
    case 'below':
      return bounds.min[i]! < rule.threshold!;
    case 'non_finite':
      return bounds.nonFinite[i] === 1;
    case 'no_improvement':
      return true;
  }
}

/** The state after points of which none makes the rule hold (checkPoint of each: no crossing). */
export function holdsNowhere(state: RuleState): void {
  state.firing = false;
  state.fell = true;
}
