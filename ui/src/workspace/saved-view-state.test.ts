import { describe, expect, it } from 'vitest';
import { emptyLayout, type PanelLayout } from '../charts/panel-layout';
import { applyViewState, parseViewState, sameViewState, toViewState } from './saved-view-state';

const layout: PanelLayout = {
  ...emptyLayout(),
  panels: [{ id: 'metric:train/loss', settings: { logScale: true } }],
  collapsed: ['group:val'],
};
const layouts = { metrics: layout, system: emptyLayout() };

describe('saved view state', () => {
  it('holds the URL parameters but the selection, names sorted, repeated ones as lists', () => {
    const params = new URLSearchParams(
      'sort=-metric%3ALAST%3Aval%2Facc&q=lr&col=config%3Alr&col=config%3Aseed&sel=4,5&hide=3',
    );
    expect(toViewState(params, layouts)).toEqual({
      version: 1,
      params: { col: ['config:lr', 'config:seed'], hide: '3', q: 'lr', sort: '-metric:LAST:val/acc' },
      layouts,
    });
  });

  it('survives a JSON round trip and applies as the same URL and layouts', () => {
    const params = new URLSearchParams('q=lr&col=config%3Alr&col=config%3Aseed&logy=1');
    const saved = JSON.parse(JSON.stringify(toViewState(params, layouts)));
    const applied = applyViewState(saved, new URLSearchParams());
    expect([...applied.params].sort()).toEqual([...params].sort());
    expect(applied.layouts).toEqual(layouts);
    expect(sameViewState(saved, toViewState(applied.params, applied.layouts))).toBe(true);
  });

  it('holds the grouping, its band and the sweep panels with their brushes (issue 28)', () => {
    const params = new URLSearchParams();
    params.set('group', 'config.lr,config.optimizer');
    params.set('band', 'minmax');
    params.set('sweep', '1');
    params.set('axes', 'lr,optimizer');
    params.append('brush', '["config.lr",0.001,0.003]');
    params.append('brush', '["config.optimizer",["sgd"]]');
    const saved = JSON.parse(JSON.stringify(toViewState(params, layouts)));
    expect(saved.params).toMatchObject({
      group: 'config.lr,config.optimizer',
      band: 'minmax',
      brush: ['["config.lr",0.001,0.003]', '["config.optimizer",["sgd"]]'],
    });
    expect([...applyViewState(saved, new URLSearchParams()).params].sort()).toEqual([...params].sort());
  });

  it('keeps the current selection when a view is applied, and drops a saved one', () => {
    const applied = applyViewState({ params: { q: 'x', sel: '9' } }, new URLSearchParams('sel=1,2&q=old&hide=4'));
    expect(applied.params.toString()).toBe('q=x&sel=1%2C2');
  });

  it('reads params given as a query string, as pairs or as an object of scalars', () => {
    const expected = { q: 'lr', smooth: '0.6', col: ['a', 'b'], logy: 'true' };
    const sorted = { col: ['a', 'b'], logy: 'true', q: 'lr', smooth: '0.6' };
    expect(parseViewState({ params: '?q=lr&smooth=0.6&col=a&col=b&logy=true' }).params).toEqual(sorted);
    expect(
      parseViewState({
        params: [
          ['q', 'lr'],
          ['smooth', 0.6],
          ['col', 'a'],
          ['col', 'b'],
          ['logy', true],
        ],
      }).params,
    ).toEqual(sorted);
    expect(parseViewState({ params: expected }).params).toEqual(sorted);
  });

  it('drops what it does not understand and gives empty layouts for missing ones', () => {
    const state = parseViewState({
      version: 7,
      params: { q: { nested: true }, tags: null, status: ['FAILED', 3, {}], '': 'x' },
      layouts: { metrics: 'nonsense' },
      extra: [1, 2],
    });
    expect(state).toEqual({
      version: 1,
      params: { status: ['FAILED', '3'] },
      layouts: { metrics: emptyLayout(), system: emptyLayout() },
    });
    for (const foreign of [null, 42, 'text', [], { params: 5 }])
      expect(parseViewState(foreign)).toEqual({
        version: 1,
        params: {},
        layouts: { metrics: emptyLayout(), system: emptyLayout() },
      });
  });

  it('tells a changed parameter or layout from the same state in another order', () => {
    const a = toViewState(new URLSearchParams('q=lr&hide=3'), layouts);
    expect(sameViewState(a, { params: { hide: '3', q: 'lr' }, layouts })).toBe(true);
    expect(sameViewState(a, toViewState(new URLSearchParams('q=lr&hide=3,4'), layouts))).toBe(false);
    expect(
      sameViewState(a, toViewState(new URLSearchParams('q=lr&hide=3'), { ...layouts, metrics: emptyLayout() })),
    ).toBe(false);
    // The selection is not part of a view.
    expect(sameViewState(a, toViewState(new URLSearchParams('q=lr&hide=3&sel=1'), layouts))).toBe(true);
  });
});
