import { describe, expect, it } from 'vitest';
import { tipRowCount } from './chart-tooltip';

describe('tipRowCount', () => {
  it('lists every row when they fit', () => {
    expect(tipRowCount(12, 12)).toBe(12);
    expect(tipRowCount(3, 12)).toBe(3);
  });

  it('keeps a line for "+N more" when they do not', () => {
    expect(tipRowCount(13, 12)).toBe(11);
    expect(tipRowCount(60, 14)).toBe(13);
  });

  it('lists at least one row', () => {
    expect(tipRowCount(5, 1)).toBe(1);
    expect(tipRowCount(5, 0)).toBe(1);
    expect(tipRowCount(5, -2)).toBe(1);
  });
});
