import { describe, expect, it } from 'vitest';
import { compactTipLine, nearestRows, tipLine } from './group-tooltip';

describe('grouped readout', () => {
  it('picks the values nearest the cursor, nearest first, gaps last', () => {
    expect(nearestRows([10, 50, null, 42, 90, 38], 40, 3)).toEqual([3, 5, 1]);
    expect(nearestRows([null, 5], 0, 2)).toEqual([1, 0]);
    expect(nearestRows([1, 1], 1, 1)).toEqual([0]);
  });

  it('writes a compact line without the band name, the desktop line with it', () => {
    expect(tipLine(0.5, 0.4, 0.6, 4, 'std')).toBe('mean 0.5 · ±std 0.4–0.6 · n 4');
    expect(compactTipLine(0.5, 0.4, 0.6, 4)).toBe('0.5 · 0.4–0.6 · n 4');
  });
});
