/**
 * The batch check's shortcut (batchBounds, mayHold, holdsNowhere): a rule that no point of a
 * batch can make hold ends in the state checkPoint of each point leaves, with no crossing.
 */
import { describe, expect, it } from 'vitest';
import {
  batchBounds,
  checkPoint,
  freshState,
  holdsNowhere,
  mayHold,
  type AlertRule,
  type RuleState,
} from '../../src/domain/alert-rules.js';

const rule = (r: Partial<AlertRule> & Pick<AlertRule, 'kind'>): AlertRule => ({
  id: 1,
  orgId: 1,
  projectId: 1,
  logName: 'm',
  threshold: null,
  steps: null,
  goal: null,
  createdAt: 0,
  ...r,
});

/** (name index, step, time, value) of each value of metric 0, with a point of metric 1 between. */
function cols(values: readonly number[]): Float64Array {
  const out: number[] = [];
  values.forEach((v, step) => out.push(0, step, step, v, 1, step, step, 1e12));
  return Float64Array.from(out);
}

describe('the batch shortcut of the rule check', () => {
  const rules = [
    rule({ kind: 'above', threshold: 5 }),
    rule({ kind: 'below', threshold: -5 }),
    rule({ kind: 'non_finite' }),
  ];
  const batches: number[][] = [
    [1, 2, 3],
    [1, 6, 2],
    [-1, -6],
    [Number.NaN],
    [1, Number.POSITIVE_INFINITY],
    [Number.NEGATIVE_INFINITY, 0],
    [5, -5],
  ];
  it.each(batches)('agrees with checking each point: %j', (...values) => {
    const bounds = batchBounds(2, cols(values));
    for (const r of rules) {
      for (const start of [freshState(), { firing: true, fell: false, best: NaN, bestStep: 0 }]) {
        const each: RuleState = { ...start };
        const crossings = values.map((v, step) => checkPoint(r, each, step, v)).filter(Boolean);
        if (mayHold(r, bounds, 0)) {
          expect(
            values.some((v) => (r.kind === 'above' ? v > 5 : r.kind === 'below' ? v < -5 : !Number.isFinite(v))),
          ).toBe(true);
          continue;
        }
        const short: RuleState = { ...start };
        holdsNowhere(short);
        expect(short).toEqual(each);
        expect(crossings).toEqual([]);
      }
    }
  });

  it('looks at every point of a no_improvement rule', () => {
    expect(mayHold(rule({ kind: 'no_improvement', steps: 3 }), batchBounds(1, cols([1])), 0)).toBe(true);
  });
});
