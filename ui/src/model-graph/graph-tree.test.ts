import { describe, expect, it } from 'vitest';
import { buildGraphTree, formatCount, type GraphNode } from './graph-tree';

/** The tree as nested "label" / [label, children] for comparing shapes. */
const shape = (nodes: GraphNode[]): unknown[] =>
  nodes.map((n) => (n.children.length === 0 ? n.label : [n.label, shape(n.children)]));

describe('buildGraphTree', () => {
  it('answers an empty tree for no nodes', () => {
    const tree = buildGraphTree({});
    expect(tree.roots).toEqual([]);
    expect(tree.byId.size).toBe(0);
    expect(tree.total).toBe(0);
    expect(tree.count).toBe(0);
  });

  it('nests nodes by their dotted names and adds the missing ancestors as implied', () => {
    const tree = buildGraphTree({ 'encoder.layers.0.attn': { type: 'Attention' }, head: {} });
    expect(shape(tree.roots)).toEqual([['encoder', [['layers', [['0', ['attn']]]]]], 'head']);
    expect(tree.count).toBe(5);
    const attn = tree.byId.get('encoder.layers.0.attn')!;
    expect(attn).toMatchObject({ label: 'attn', type: 'Attention', depth: 3, implied: false });
    expect(attn.parent!.id).toBe('encoder.layers.0');
    expect(tree.byId.get('encoder.layers')!.implied).toBe(true);
    expect(tree.byId.get('encoder.layers')!.type).toBeNull();
    expect(tree.byId.get('head')!.implied).toBe(false);
  });

  it('prefers a declared parent to the dotted name and adds no ancestors for it', () => {
    const tree = buildGraphTree({ root: {}, 'a.b.c': { parent: 'root' }, x: { parent_name: 'root' } });
    expect(shape(tree.roots)).toEqual([['root', ['c', 'x']]]);
    expect(tree.byId.has('a.b')).toBe(false);
    expect(tree.byId.get('a.b.c')!.label).toBe('c');
  });

  it('makes a node whose declared parent is missing or itself a root', () => {
    const tree = buildGraphTree({ a: { parentName: 'nowhere' }, b: { parent: 'b' } });
    expect(shape(tree.roots)).toEqual(['a', 'b']);
  });

  it('breaks a cycle of declared parents instead of looping', () => {
    const tree = buildGraphTree({ a: { parent: 'b' }, b: { parent: 'a' } });
    expect(tree.count).toBe(2);
    expect(tree.roots).toHaveLength(1);
    const root = tree.roots[0]!;
    expect(root.children).toHaveLength(1);
    expect(root.children[0]!.children).toEqual([]);
  });

  it('orders children naturally: layer 2 before layer 10', () => {
    const nodes = Object.fromEntries(['10', '2', '1', 'b', 'a'].map((i) => [`layers.${i}`, {}]));
    const tree = buildGraphTree(nodes);
    expect(tree.roots[0]!.children.map((c) => c.label)).toEqual(['1', '2', '10', 'a', 'b']);
  });

  it('reads the type from the first known key that holds a non-empty string', () => {
    const types = buildGraphTree({
      a: { node_type: 'Conv2d', kind: 'op' },
      b: { type: '', class_name: 'Linear' },
      c: { type: 3, layer: 'Dense' },
      d: { name: 'nothing' },
    }).byId;
    expect(['a', 'b', 'c', 'd'].map((id) => types.get(id)!.type)).toEqual(['Conv2d', 'Linear', 'Dense', null]);
  });

  it('counts parameters from a number, a dict of shapes, or a list of tensors', () => {
    const byId = buildGraphTree({
      n: { num_params: 42 },
      shapes: { params: { weight: [4, 3], bias: [4] } },
      nested: { parameters: { weight: { shape: [2, 5] }, bias: { size: [5] }, scale: 7 } },
      list: { params: [{ numel: 6 }, { shape: [2, 2] }, { size: [3] }] },
      bad: { params: { weight: ['a', 2] } },
      skipNaN: { num_params: NaN, params: 9 },
      none: { params: 'many' },
    }).byId;
    const params = (id: string) => byId.get(id)!.params;
    expect(params('n')).toBe(42);
    expect(params('shapes')).toBe(16);
    expect(params('nested')).toBe(22);
    expect(params('list')).toBe(13);
    expect(params('bad')).toBe(0);
    expect(params('skipNaN')).toBe(9);
    expect(params('none')).toBeNull();
  });

  it('adds children’s parameters, unless the parent’s own count already covers them', () => {
    const tree = buildGraphTree({
      sum: {},
      'sum.a': { num_params: 10 },
      'sum.b': { num_params: 5 },
      covered: { num_params: 100 },
      'covered.a': { num_params: 60 },
      'covered.b': { num_params: 40 },
      own: { num_params: 3 },
      'own.a': { num_params: 10 },
    });
    expect(tree.byId.get('sum')!.total).toBe(15);
    expect(tree.byId.get('covered')!.total).toBe(100);
    expect(tree.byId.get('own')!.total).toBe(13);
    expect(tree.total).toBe(128);
  });

  it('lists shape fields as text and counts edges', () => {
    const node = buildGraphTree({
      conv: {
        input_shape: [1, 3, 224, 224],
        outputShape: '(1, 64)',
        weight_shape: [],
        shapeless: 5,
        edges: [
          ['x', 'conv'],
          ['conv', 'y'],
        ],
      },
    }).byId.get('conv')!;
    expect(node.shapes).toEqual(['input shape: [1, 3, 224, 224]', 'outputShape: (1, 64)']);
    expect(node.edges).toBe(2);
  });

  it('takes a node that is not an object as an empty, logged node', () => {
    const node = buildGraphTree({ odd: 5, nul: null }).byId;
    expect(node.get('odd')).toMatchObject({ type: null, params: null, shapes: [], edges: 0, implied: false });
    expect(node.get('nul')!.implied).toBe(false);
  });

  it('builds a wide and deep tree of ten thousand nodes', () => {
    const nodes: Record<string, unknown> = {};
    for (let i = 0; i < 100; i++) for (let j = 0; j < 100; j++) nodes[`block.${i}.layer.${j}`] = { num_params: 1 };
    const tree = buildGraphTree(nodes);
    // block, 100 × (block.i, block.i.layer), 10,000 leaves.
    expect(tree.count).toBe(1 + 200 + 10_000);
    expect(tree.total).toBe(10_000);
    expect(tree.roots[0]!.children.map((c) => c.label).slice(0, 3)).toEqual(['0', '1', '2']);
    expect(tree.byId.get('block.99.layer.99')!.depth).toBe(3);
  });
});

describe('formatCount', () => {
  it('shows counts under a thousand as they are', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
  });

  it('shows larger counts with one decimal, none from 100 of a unit', () => {
    expect(formatCount(1_000)).toBe('1.0K');
    expect(formatCount(1_234)).toBe('1.2K');
    expect(formatCount(123_456)).toBe('123K');
    expect(formatCount(3_400_000)).toBe('3.4M');
    expect(formatCount(5_600_000_000)).toBe('5.6B');
    expect(formatCount(2e12)).toBe('2.0T');
    expect(formatCount(2e15)).toBe('2000T');
  });

  // Was a bug: rounding happened after the unit was chosen, so 999,999 showed as "1000K"
  // (and 99,999 as "100.0K").
  it('rolls over to the next unit when rounding reaches 1000, and drops the decimal at 100', () => {
    expect(formatCount(999_999)).toBe('1.0M');
    expect(formatCount(99_999)).toBe('100K');
    expect(formatCount(999_999_999)).toBe('1.0B');
    expect(formatCount(99_949)).toBe('99.9K');
  });
});
