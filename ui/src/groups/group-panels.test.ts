import { describe, expect, it } from 'vitest';
import { ema } from '../charts/chart-model';
import { emptyLayout, metricPanelId, updatePanel } from '../charts/panel-layout';
import { groupChartData, groupChartModel } from './group-chart-model';
import { groupChartPanels } from './group-panels';

describe('grouped chart panels', () => {
  const names = ['train/loss', 'train/lr', 'val/acc'];

  it("take a panel's smoothing, else the page's, and name the panel and its section to change", () => {
    const layout = updatePanel(emptyLayout(), metricPanelId('val/acc'), { settings: { smoothing: 0.6, yMax: 1 } });
    const panels = groupChartPanels(layout, names, { logScale: false, smoothing: 0.2 });
    const acc = panels.find((p) => p.chart.logName === 'val/acc')!;
    expect(acc.chart).toEqual({ logName: 'val/acc', logScale: false, smoothing: 0.6, yMax: 1 });
    expect(acc.panel?.id).toBe(metricPanelId('val/acc'));
    expect(acc.sectionIds).toEqual([metricPanelId('val/acc')]);
    const loss = panels.find((p) => p.chart.logName === 'train/loss')!;
    expect(loss.chart.smoothing).toBe(0.2);
    expect(loss.sectionIds).toEqual([metricPanelId('train/loss'), metricPanelId('train/lr')]);
  });

  it('leave smoothing out at 0 and name no panel without a layout', () => {
    const panels = groupChartPanels(undefined, names, { logScale: true, smoothing: 0 });
    expect(panels[0]).toEqual({ chart: { logName: 'train/loss', logScale: true }, sectionIds: [] });
  });
});

describe('grouped chart smoothing', () => {
  const point = (step: number, mean: number) => ({
    step,
    stepEnd: step,
    n: 2,
    mean,
    std: 1,
    stderr: 0.7,
    min: mean - 2,
    max: mean + 2,
  });
  const answer = {
    projectName: 'p',
    groupBy: ['config.lr'],
    logName: 'loss',
    total: 1,
    groups: [{ key: { 'config.lr': 0.1 }, runCount: 2, points: [point(0, 4), point(1, 0), point(2, 8)] }],
  };

  it("smooths the mean and both band edges with the runs' charts' EMA, and leaves them raw at 0", () => {
    const m = groupChartModel(answer, 'std');
    const [xs, low, high, mean] = groupChartData(m, false, 0.5);
    expect(xs).toEqual([0, 1, 2]);
    expect(mean).toEqual(ema([4, 0, 8], 0.5));
    expect(low).toEqual(ema([3, -1, 7], 0.5));
    expect(high).toEqual(ema([5, 1, 9], 0.5));
    expect(groupChartData(m, false, 0)[3]).toEqual([4, 0, 8]);
    // On a log scale a value <= 0 is a gap: the raw low edge -1 is, the smoothed 1/3 is not.
    expect(groupChartData(m, true, 0)[1]![1]).toBeNull();
    expect(groupChartData(m, true, 0.5)[1]![1]).toBeCloseTo(1 / 3);
  });
});
