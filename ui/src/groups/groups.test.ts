import { describe, expect, it } from 'vitest';
import { bandOf, meanPlusMinus, summarize } from './band';
import { readBand, readGroupBy } from './group-by';
import { groupId, groupLabel, groupLegend } from './group-label';
import { groupNarrowing } from './group-runs';
import { groupChartData, groupChartModel } from './group-chart-model';
import { groupPanels } from './group-panels';
import { emptyLayout, metricPanelId, movePanel, removePanel, updatePanel } from '../charts/panel-layout';

describe('group labels', () => {
  const groupBy = ['config.lr', 'config.optimizer'];

  it('name numbers by their key and let text stand alone', () => {
    expect(groupLabel(groupBy, { 'config.lr': 0.01, 'config.optimizer': 'adamw' })).toBe('lr=0.01, adamw');
    expect(groupLegend('lr=0.01, adamw', 4)).toBe('lr=0.01, adamw · 4 runs');
    expect(groupLegend('x', 1)).toBe('x · 1 run');
  });

  it('say "none" for a missing value and keep an empty text visible', () => {
    expect(groupLabel(groupBy, { 'config.lr': null, 'config.optimizer': '' })).toBe('lr=none, optimizer=""');
    expect(groupLabel(['status'], { status: 'FINISHED' })).toBe('FINISHED');
    expect(groupId(groupBy, { 'config.lr': null })).toBe('[null,null]');
  });
});

describe('group-by parameters', () => {
  it('keep at most three known, distinct fields', () => {
    expect(readGroupBy('config.lr, status,bogus,config.lr,group,config.x')).toEqual(['config.lr', 'status', 'group']);
    expect(readGroupBy(null)).toEqual([]);
    expect(readBand('minmax')).toBe('minmax');
    expect(readBand('wide')).toBe('std');
  });
});

describe('bands', () => {
  const b = { n: 4, mean: 1, std: 0.5, stderr: 0.25, min: 0.2, max: 1.9 };

  it('span mean ± std, mean ± stderr or min..max', () => {
    expect(bandOf(b, 'std')).toEqual([0.5, 1.5]);
    expect(bandOf(b, 'stderr')).toEqual([0.75, 1.25]);
    expect(bandOf(b, 'minmax')).toEqual([0.2, 1.9]);
    expect(bandOf({ ...b, stderr: undefined }, 'stderr')).toEqual([0.75, 1.25]);
  });

  it('have no width for one run', () => {
    expect(bandOf({ n: 1, mean: 2, std: null, stderr: null, min: 2, max: 2 }, 'std')).toEqual([2, 2]);
  });

  it('summarize with the sample standard deviation', () => {
    expect(summarize([1, 2, 3, NaN])).toEqual({ n: 3, mean: 2, std: 1, min: 1, max: 3 });
    expect(summarize([5])).toEqual({ n: 1, mean: 5, std: null, min: 5, max: 5 });
    expect(summarize([])).toBeNull();
    expect(meanPlusMinus(1, 0.5, String)).toBe('1 ± 0.5');
    expect(meanPlusMinus(1, null, String)).toBe('1');
  });
});

describe('groupNarrowing', () => {
  it('adds one condition per field to the view’s narrowing', () => {
    const n = groupNarrowing({ search: 'res', filter: '{"status":"FINISHED"}' }, ['config.lr', 'config.opt'], {
      'config.lr': 0.01,
      'config.opt': null,
    });
    expect(n?.search).toBe('res');
    expect(JSON.parse(n!.filter!)).toEqual({
      $and: [{ status: 'FINISHED' }, { 'config.lr': { $eq: 0.01 } }, { 'config.opt': { $exists: false } }],
    });
  });

  it('narrows by status and by the group tag, and gives up on runs without a group', () => {
    expect(groupNarrowing({}, ['status', 'group'], { status: 'RUNNING', group: 'a' })).toEqual({
      search: undefined,
      status: ['RUNNING'],
      tags: ['group:a'],
      filter: '',
    });
    expect(groupNarrowing({}, ['group'], { group: null })).toBeUndefined();
  });
});

describe('groupChartModel', () => {
  const point = (step: number, mean: number, std: number | null, n = 4) => ({
    step,
    stepEnd: step,
    n,
    mean,
    std,
    stderr: std === null ? null : std / Math.sqrt(n),
    min: mean - 3,
    max: mean + 3,
  });
  const answer = {
    projectName: 'p',
    groupBy: ['config.lr'],
    logName: 'loss',
    total: 2,
    groups: [
      { key: { 'config.lr': 0.1 }, runCount: 4, points: [point(0, 1, 1), point(2, 2, 1)] },
      { key: { 'config.lr': 0.2 }, runCount: 1, points: [point(1, 5, null, 1)] },
    ],
  };

  it('lines the groups up on every bucket step, with gaps where a group has none', () => {
    const m = groupChartModel(answer, 'std');
    expect(m.xs).toEqual([0, 1, 2]);
    expect(m.buckets).toBe(3);
    expect(m.traces[0]).toMatchObject({ label: 'lr=0.1', mean: [1, null, 2], low: [0, null, 1], high: [2, null, 3] });
    expect(m.traces[1]).toMatchObject({ label: 'lr=0.2', mean: [null, 5, null], low: [null, 5, null] });
    expect(groupChartData(m)).toHaveLength(1 + 3 * 2);
  });

  it('widens the band to min–max', () => {
    expect(groupChartModel(answer, 'minmax').traces[0]!.high).toEqual([4, null, 5]);
  });
});

describe('group panels', () => {
  const names = ['train/loss', 'train/lr', 'val/acc', 'val/loss'];

  it('follow the runs charts layout: removed charts stay out, moved ones keep their place', () => {
    let layout = removePanel(emptyLayout(), metricPanelId('val/loss'));
    layout = movePanel(layout, [metricPanelId('train/loss'), metricPanelId('train/lr')], metricPanelId('train/lr'), -1);
    expect(groupPanels(layout, names, false).map((p) => p.logName)).toEqual(['train/lr', 'train/loss', 'val/acc']);
  });

  it("keep a panel's log scale and y range, else the page's log scale", () => {
    const layout = updatePanel(emptyLayout(), metricPanelId('val/acc'), { settings: { logScale: false, yMin: 0.5 } });
    const panels = groupPanels(layout, names, true);
    expect(panels.find((p) => p.logName === 'val/acc')).toEqual({ logName: 'val/acc', logScale: false, yMin: 0.5 });
    expect(panels.find((p) => p.logName === 'train/loss')).toEqual({ logName: 'train/loss', logScale: true });
  });

  it('draw one chart per name in the given order without a layout', () => {
    expect(groupPanels(undefined, names, false).map((p) => p.logName)).toEqual(names);
  });
});
