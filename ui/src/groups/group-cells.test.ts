import { describe, expect, it } from 'vitest';
import type { RunGroup } from '@server/api/schemas/groups';
import { columnSummaries, groupConfigCell, groupMetricCell, withoutRuns } from './group-cells';

describe('withoutRuns', () => {
  it('leaves the filter as it is when nothing is hidden', () => {
    expect(withoutRuns(undefined, [])).toBeUndefined();
    expect(withoutRuns('{"a":1}', [])).toBe('{"a":1}');
  });

  it('sends the hidden ids as $nin, AND-ed with the filter', () => {
    expect(JSON.parse(withoutRuns(undefined, [5, 2])!)).toEqual({ id: { $nin: [2, 5] } });
    expect(JSON.parse(withoutRuns(' ', [3])!)).toEqual({ id: { $nin: [3] } });
    expect(JSON.parse(withoutRuns('{"config.lr":0.1}', [3])!)).toEqual({
      $and: [{ 'config.lr': 0.1 }, { id: { $nin: [3] } }],
    });
  });

  it('splits many ids into $nin lists of 100, at most 400 ids', () => {
    const ids = Array.from({ length: 450 }, (_, i) => i + 1);
    const parsed = JSON.parse(withoutRuns(undefined, ids)!) as { $and: { id: { $nin: number[] } }[] };
    expect(parsed.$and.map((p) => p.id.$nin.length)).toEqual([100, 100, 100, 100]);
  });

  it('keeps a filter that is not JSON for the API to refuse', () => {
    expect(withoutRuns('{bad', [1])).toBe('{bad');
  });
});

describe('group cells', () => {
  const group: RunGroup = {
    key: { 'config.lr': 0.1 },
    runCount: 2,
    runIds: [1, 2],
    summary: { loss: { n: 2, mean: 1, std: 0.5, min: 0.5, max: 1.5 } },
    summaryMin: { loss: { n: 2, mean: 0.25, std: null, min: 0.2, max: 0.3 } },
  };

  it('show a metric column in its own summary', () => {
    expect(groupMetricCell(group, { name: 'loss', agg: 'last' }).text).toBe('1 ± 0.5');
    expect(groupMetricCell(group, { name: 'loss', agg: 'min' })).toEqual({
      text: '0.25',
      title: 'n 2 · min 0.2 · max 0.3',
    });
    expect(groupMetricCell(group, { name: 'loss', agg: 'max' }).text).toBe('—');
  });

  it('ask for the summaries the metric columns use, last first', () => {
    expect(
      columnSummaries([
        { kind: 'metric', name: 'a', agg: 'min' },
        { kind: 'config', key: 'lr' },
        { kind: 'metric', name: 'b', agg: 'last' },
        { kind: 'metric', name: 'a', agg: 'min' },
      ]),
    ).toEqual(['last', 'min']);
    expect(columnSummaries([{ kind: 'config', key: 'lr' }])).toEqual([]);
  });

  it('show a shared config value, else the number of values with them in the title', () => {
    expect(groupConfigCell({ count: 1, values: ['adam'] })).toEqual({ text: 'adam', title: 'adam' });
    expect(groupConfigCell({ count: 1, values: [null] }).text).toBe('—');
    expect(groupConfigCell({ count: 3, values: [0, 1, null] })).toEqual({ text: '3 values', title: '0, 1, —' });
    expect(groupConfigCell({ count: 12, values: [0, 1] })).toEqual({ text: '12 values', title: '0, 1, …' });
    expect(groupConfigCell(undefined).text).toBe('—');
  });
});
