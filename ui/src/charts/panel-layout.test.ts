import { describe, expect, it } from 'vitest';
import {
  addPanel,
  compilePattern,
  emptyLayout,
  groupSectionKey,
  metricPanelId,
  movePanel,
  parseLayout,
  removePanel,
  resolveSections,
  restoreRemoved,
  toggleSection,
  updatePanel,
  type PanelLayout,
} from './panel-layout';

const NAMES = ['loss', 'train/acc', 'train/loss', 'train/lr', 'val/acc'];

/** Each section's key and its panels' labels, for short expectations. */
const shape = (layout: PanelLayout, names = NAMES, filter = '') =>
  resolveSections(layout, names, filter).map((s) => [s.key, s.panels.map((p) => p.label)]);

describe('panel layout', () => {
  it('gives every metric its chart, grouped by logGroup in code-point order, with nothing changed', () => {
    expect(shape(emptyLayout())).toEqual([
      ['group:', ['loss']],
      ['group:train', ['train/acc', 'train/loss', 'train/lr']],
      ['group:val', ['val/acc']],
    ]);
    const [ungrouped] = resolveSections(emptyLayout(), NAMES);
    expect(ungrouped!.title).toBe('Ungrouped');
    expect(ungrouped!.panels[0]).toMatchObject({
      id: 'metric:loss',
      custom: false,
      metrics: ['loss'],
      width: 'normal',
    });
  });

  it('keeps the panels whose label contains the filter, and leaves out sections left empty', () => {
    expect(shape(emptyLayout(), NAMES, ' ACC')).toEqual([
      ['group:train', ['train/acc']],
      ['group:val', ['val/acc']],
    ]);
  });

  it('adds panels in a Panels section first, numbered, newest at the top', () => {
    const one = addPanel(emptyLayout());
    const two = addPanel(one.layout, { pattern: 'train/.*' });
    expect([one.id, two.id]).toEqual(['panel:1', 'panel:2']);
    const [first] = resolveSections(two.layout, NAMES);
    expect(first!.key).toBe('custom');
    expect(first!.title).toBe('Panels');
    expect(first!.panels.map((p) => p.label)).toEqual(['train/.*', 'Panel 1']);
    expect(first!.panels[0]!.metrics).toEqual(['train/acc', 'train/loss', 'train/lr']);
    expect(first!.panels[1]!.metrics).toEqual([]);
    // A removed number is taken again.
    expect(addPanel(removePanel(two.layout, 'panel:1')).id).toBe('panel:1');
  });

  it('draws named metrics first, then what the pattern matches (whole names), capped at twenty', () => {
    const { layout, id } = addPanel(emptyLayout(), { metrics: ['val/acc'], pattern: '.*acc' });
    const panel = resolveSections(layout, NAMES)[0]!.panels[0]!;
    expect(panel.id).toBe(id);
    expect(panel.label).toBe('val/acc, .*acc');
    expect(panel.metrics).toEqual(['val/acc', 'train/acc']);
    expect(resolveSections(addPanel(emptyLayout(), { pattern: 'acc' }).layout, NAMES)[0]!.panels[0]!.metrics).toEqual(
      [],
    );
    const many = Array.from({ length: 25 }, (_, i) => `m/${String(i).padStart(2, '0')}`);
    const capped = resolveSections(addPanel(emptyLayout(), { pattern: 'm/.*' }).layout, many)[0]!.panels[0]!;
    expect(capped.metrics).toHaveLength(20);
    expect(capped.matched).toBe(25);
  });

  it('reports a pattern that is not a regular expression and draws nothing for it', () => {
    expect(compilePattern('train/(')).toEqual(expect.any(String));
    expect(compilePattern('a|b')).toBeInstanceOf(RegExp);
    const panel = resolveSections(addPanel(emptyLayout(), { pattern: 'train/(' }).layout, NAMES)[0]!.panels[0]!;
    expect(panel.patternError).toEqual(expect.any(String));
    expect(panel.metrics).toEqual([]);
  });

  it("updates a chart's own settings and size, and an undefined key removes it", () => {
    const id = metricPanelId('train/loss');
    let layout = updatePanel(emptyLayout(), id, { settings: { x: { metric: 'train/lr' }, yMax: 2 }, width: 'full' });
    let panel = resolveSections(layout, NAMES)[1]!.panels[1]!;
    expect(panel).toMatchObject({
      id,
      width: 'full',
      height: 'normal',
      settings: { x: { metric: 'train/lr' }, yMax: 2 },
    });
    layout = updatePanel(layout, id, { width: undefined, height: 'tall' });
    panel = resolveSections(layout, NAMES)[1]!.panels[1]!;
    expect(panel).toMatchObject({ width: 'normal', height: 'tall' });
    expect(layout.panels).toEqual([{ id, settings: { x: { metric: 'train/lr' }, yMax: 2 }, height: 'tall' }]);
  });

  it('leaves the given layout unchanged', () => {
    const before = emptyLayout();
    const copy = structuredClone(before);
    addPanel(before);
    updatePanel(before, 'metric:loss', { width: 'full' });
    removePanel(before, 'metric:loss');
    toggleSection(before, 'group:train');
    expect(before).toEqual(copy);
  });

  it('removes a chart until restored, and an added panel for good', () => {
    const { layout } = addPanel(emptyLayout());
    let next = removePanel(removePanel(layout, 'metric:train/acc'), 'panel:1');
    expect(shape(next)[1]).toEqual(['group:train', ['train/loss', 'train/lr']]);
    expect(next.panels).toEqual([]);
    expect(next.removed).toEqual(['metric:train/acc']);
    next = restoreRemoved(next);
    expect(shape(next)[1]).toEqual(['group:train', ['train/acc', 'train/loss', 'train/lr']]);
    expect(shape(removePanel(emptyLayout(), 'metric:loss'))[0]).toEqual(['group:train', expect.any(Array)]);
    // A chart moved, removed and restored comes back where it was.
    const ids = ['metric:train/acc', 'metric:train/loss', 'metric:train/lr'];
    const moved = movePanel(emptyLayout(), ids, 'metric:train/lr', -2);
    expect(shape(restoreRemoved(removePanel(moved, 'metric:train/acc')))[1]).toEqual([
      'group:train',
      ['train/lr', 'train/acc', 'train/loss'],
    ]);
  });

  it('moves a panel up and down within its section, and not past its ends', () => {
    const ids = () => resolveSections(layout, NAMES)[1]!.panels.map((p) => p.id);
    let layout = emptyLayout();
    layout = movePanel(layout, ids(), 'metric:train/lr', -1);
    expect(ids()).toEqual(['metric:train/acc', 'metric:train/lr', 'metric:train/loss']);
    layout = movePanel(layout, ids(), 'metric:train/lr', -1);
    expect(ids()).toEqual(['metric:train/lr', 'metric:train/acc', 'metric:train/loss']);
    expect(movePanel(layout, ids(), 'metric:train/lr', -1)).toBe(layout);
    layout = movePanel(layout, ids(), 'metric:train/acc', 1);
    expect(ids()).toEqual(['metric:train/lr', 'metric:train/loss', 'metric:train/acc']);
    expect(movePanel(layout, ids(), 'metric:train/acc', 1)).toBe(layout);
    // The other sections keep their order; a new metric comes after the ordered ones.
    expect(shape(layout)[2]).toEqual(['group:val', ['val/acc']]);
    expect(resolveSections(layout, [...NAMES, 'train/a'])[1]!.panels.map((p) => p.label)).toEqual([
      'train/lr',
      'train/loss',
      'train/acc',
      'train/a',
    ]);
  });

  it('collapses and opens a section', () => {
    const key = groupSectionKey('train');
    const closed = toggleSection(emptyLayout(), key);
    expect(resolveSections(closed, NAMES).find((s) => s.key === key)!.collapsed).toBe(true);
    expect(resolveSections(toggleSection(closed, key), NAMES).find((s) => s.key === key)!.collapsed).toBe(false);
  });

  it('round-trips through JSON and drops what is malformed', () => {
    let layout = addPanel(emptyLayout(), { pattern: 'train/.*', metrics: ['loss'] }).layout;
    layout = updatePanel(layout, 'metric:val/acc', {
      settings: { x: 'relative', smoothing: 0.6, logScale: true, yMin: 0 },
      height: 'tall',
    });
    layout = toggleSection(removePanel(layout, 'metric:loss'), 'group:val');
    expect(parseLayout(JSON.parse(JSON.stringify(layout)))).toEqual(layout);

    expect(parseLayout(null)).toEqual(emptyLayout());
    expect(parseLayout({ version: 2, panels: [] })).toEqual(emptyLayout());
    expect(
      parseLayout({
        version: 1,
        panels: [
          { id: 'other' },
          { id: 'panel:1', width: 'huge', metrics: ['a', 3], settings: { x: { metric: '' }, smoothing: 5, yMax: 'x' } },
          { id: 'panel:1' },
        ],
        removed: 'metric:a',
        order: ['panel:1', 7],
      }),
    ).toEqual({
      version: 1,
      panels: [{ id: 'panel:1', metrics: ['a'], settings: { smoothing: 0.99 } }],
      removed: [],
      order: ['panel:1'],
      collapsed: [],
    });
  });
});
