import { describe, expect, it } from 'vitest';
import { chartedNote, readHidden, toggleHidden, writeHidden } from './workspace-state';

describe('workspace state', () => {
  it('reads hidden run ids from the URL, dropping what is not an id', () => {
    expect(readHidden('3,1,x,,0,-2,1,12')).toEqual([1, 3, 12]);
    expect(readHidden(null)).toEqual([]);
  });

  it('writes hidden ids sorted, and nothing for none', () => {
    expect(writeHidden([5, 2, 5])).toBe('2,5');
    expect(writeHidden([])).toBeNull();
  });

  it('toggles one run in or out of the hidden list', () => {
    expect(toggleHidden([1, 4], 2, true)).toEqual([1, 2, 4]);
    expect(toggleHidden([1, 2, 4], 2, false)).toEqual([1, 4]);
    expect(toggleHidden([1], 1, true)).toEqual([1]);
  });

  it('notes when more runs match than are charted', () => {
    expect(chartedNote(100, 2000)).toBe('Charting the first 100 of 2,000 matching runs');
    expect(chartedNote(24, 24)).toBeNull();
  });

  it('survives a JSON round trip, as a saved view stores it', () => {
    const state = { hidden: [2, 7], highlight: null };
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
  });
});
