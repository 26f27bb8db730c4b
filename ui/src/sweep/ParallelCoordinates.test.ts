import { describe, expect, it } from 'vitest';
import { keyedSpan, titlesCrowded } from './ParallelCoordinates';

describe('keyedSpan', () => {
  it('starts on the middle fifth and moves a tenth inside the axis', () => {
    expect(keyedSpan(undefined, 1, false)).toEqual([0.4, 0.6]);
    const up = keyedSpan([0.4, 0.6], 1, false);
    expect(up[0]).toBeCloseTo(0.5, 12);
    expect(up[1]).toBeCloseTo(0.7, 12);
    expect(keyedSpan([0.85, 0.95], 1, false)).toEqual([0.9, 1]);
    const down = keyedSpan([0.05, 0.2], -1, false);
    expect(down[0]).toBe(0);
    expect(down[1]).toBeCloseTo(0.15, 12);
  });

  it('moves only the top edge with Shift, keeping a twentieth', () => {
    expect(keyedSpan([0.4, 0.6], 1, true)[1]).toBeCloseTo(0.7, 12);
    expect(keyedSpan([0.4, 0.42], -1, true)).toEqual([0.4, 0.45]);
  });
});

describe('titlesCrowded', () => {
  it('tells when neighbouring axis titles would meet on one row', () => {
    // 'batch_size' (start-anchored, 80 px) and 'lr' (centred, 8 px each side) fit 100 px apart.
    expect(titlesCrowded(['batch_size', 'lr', 'seed'], 100)).toBe(false);
    expect(titlesCrowded(['batch_size', 'learning_rate', 'seed'], 100)).toBe(true);
    expect(titlesCrowded(['a', 'b'], 30)).toBe(false);
  });
});
