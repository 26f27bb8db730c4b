/**
 * Turning a stored model graph (`{format, nodes}`: nodes keyed by name, each with `edges`
 * `[[source, target], ...]` and whatever else the client sent) into a module tree. The
 * hierarchy comes from a node's `parent` field when present, else from its dotted name
 * (`encoder.layers.0.attn` sits under `encoder.layers.0`); missing ancestors are added.
 */

export interface GraphNode {
  /** Full name (the node's key). */
  id: string;
  /** The last segment of the name, shown in the tree. */
  label: string;
  type: string | null;
  /** Shapes as "label: [a, b]" texts. */
  shapes: string[];
  /** The node's own parameter count, when the client sent one. */
  params: number | null;
  /** Parameters of the node and everything under it. */
  total: number;
  edges: number;
  children: GraphNode[];
  parent: GraphNode | null;
  depth: number;
  /** True for ancestors added because only their descendants were logged. */
  implied: boolean;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const TYPE_KEYS = ['type', 'node_type', 'nodeType', 'class', 'class_name', 'module', 'op', 'kind', 'layer'];
const PARAM_KEYS = ['num_params', 'numParams', 'param_count', 'n_params', 'nparams', 'params', 'parameters'];

function typeOf(node: Obj): string | null {
  for (const k of TYPE_KEYS) {
    const v = node[k];
    if (typeof v === 'string' && v) return v;
  }
  return null;
}

const product = (shape: unknown): number =>
  Array.isArray(shape) && shape.every((d) => typeof d === 'number')
    ? shape.reduce((a: number, d: number) => a * d, 1)
    : 0;

function paramsOf(node: Obj): number | null {
  for (const k of PARAM_KEYS) {
    const v = node[k];
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    if (isObj(v)) {
      // {weight: [4, 3], bias: [4]} or {weight: {shape: [...]}} or {weight: 12}
      let sum = 0;
      for (const p of Object.values(v)) {
        if (typeof p === 'number') sum += p;
        else if (Array.isArray(p)) sum += product(p);
        else if (isObj(p)) sum += product(p.shape ?? p.size);
      }
      return sum;
    }
    if (Array.isArray(v) && v.every(isObj)) {
      return v.reduce(
        (s: number, p: Obj) => s + (typeof p.numel === 'number' ? p.numel : product(p.shape ?? p.size)),
        0,
      );
    }
  }
  return null;
}

const shapeText = (v: unknown): string | null => {
  if (Array.isArray(v) && v.length > 0) return JSON.stringify(v).replace(/,/g, ', ');
  if (typeof v === 'string' && v) return v;
  return null;
};

function shapesOf(node: Obj): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(node)) {
    if (!/shape/i.test(k)) continue;
    const text = shapeText(v);
    if (text) out.push(`${k.replace(/_/g, ' ')}: ${text}`);
  }
  return out;
}

const parentName = (name: string): string | null => {
  const i = name.lastIndexOf('.');
  return i > 0 ? name.slice(0, i) : null;
};

/** The tree's roots and every node by id. */
export interface GraphTree {
  roots: GraphNode[];
  byId: Map<string, GraphNode>;
  total: number;
  count: number;
}

/** Builds the module tree from the stored nodes. */
export function buildGraphTree(nodes: Record<string, unknown>): GraphTree {
  const byId = new Map<string, GraphNode>();
  const declaredParent = new Map<string, string>();
  const make = (id: string, raw: Obj | null): GraphNode => ({
    id,
    label: (parentName(id) ? id.slice(parentName(id)!.length + 1) : id) || '(root)',
    type: raw ? typeOf(raw) : null,
    shapes: raw ? shapesOf(raw) : [],
    params: raw ? paramsOf(raw) : null,
    total: 0,
    edges: raw && Array.isArray(raw.edges) ? raw.edges.length : 0,
    children: [],
    parent: null,
    depth: 0,
    implied: raw === null,
  });
  for (const [id, raw] of Object.entries(nodes)) {
    const obj = isObj(raw) ? raw : {};
    byId.set(id, make(id, obj));
    const p = obj.parent ?? obj.parent_name ?? obj.parentName;
    if (typeof p === 'string' && p && p !== id) declaredParent.set(id, p);
  }
  // Add missing dotted ancestors.
  for (const id of [...byId.keys()]) {
    if (declaredParent.has(id)) continue;
    for (let p = parentName(id); p && !byId.has(p); p = parentName(p)) byId.set(p, make(p, null));
  }
  const roots: GraphNode[] = [];
  for (const node of byId.values()) {
    const pid = declaredParent.get(node.id) ?? parentName(node.id);
    const parent = pid ? byId.get(pid) : undefined;
    if (parent && !isAncestor(node, parent)) {
      node.parent = parent;
      parent.children.push(node);
    } else roots.push(node);
  }
  const natural = (a: GraphNode, b: GraphNode) => a.label.localeCompare(b.label, undefined, { numeric: true });
  let count = 0;
  const visit = (node: GraphNode, depth: number): number => {
    count++;
    node.depth = depth;
    node.children.sort(natural);
    const sum = node.children.reduce((s, c) => s + visit(c, depth + 1), 0);
    const own = node.params ?? 0;
    // A count that already covers the children (PyTorch's recursive parameters()) is not added twice.
    node.total = node.children.length > 0 && own > 0 && own >= sum ? own : own + sum;
    return node.total;
  };
  roots.sort(natural);
  const total = roots.reduce((s, r) => s + visit(r, 0), 0);
  return { roots, byId, total, count };
}

function isAncestor(node: GraphNode, of: GraphNode): boolean {
  for (let p: GraphNode | null = of; p; p = p.parent) if (p === node) return true;
  return false;
}

/** Parameter counts as 1.2K / 3.4M / 5.6B: one decimal below 100 of a unit, a rounding to 1000 rolls over. */
export function formatCount(n: number): string {
  if (n < 1_000) return String(n);
  const units = [
    [1e3, 'K'],
    [1e6, 'M'],
    [1e9, 'B'],
    [1e12, 'T'],
  ] as const;
  for (let i = 0; i < units.length; i++) {
    const [size, unit] = units[i]!;
    const next = units[i + 1];
    if (next && n >= next[0]) continue;
    const v = n / size;
    let text = v.toFixed(1);
    if (Number(text) >= 100) text = v.toFixed(0);
    if (next && Number(text) >= 1000) return `${(n / next[0]).toFixed(1)}${next[1]}`;
    return `${text}${unit}`;
  }
  return String(n);
}
