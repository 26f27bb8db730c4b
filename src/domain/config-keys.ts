/**
 * `configKeys` of GET /api/runs/list: dotted key paths into a run's config, and the JSON text
 * of the config reduced to them (nested as in the config), built from the values' JSON texts.
 */
import { badRequest } from '../errors.js';

/** Most key paths one `configKeys` may name. */
export const MAX_CONFIG_KEYS = 100;
/** Most keys in one path. */
const MAX_PATH_KEYS = 32;

/**
 * The key paths of a comma-separated list (`lr,optimizer.beta1`), in order, repeats and paths
 * inside another named path dropped; an empty list names none. Throws BAD_REQUEST for an
 * empty key, a key with `"` or `\`, more than 32 keys in a path or more than 100 paths.
 */
export function parseConfigKeys(text: string): string[][] {
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (items.length > MAX_CONFIG_KEYS) throw badRequest(`configKeys may name at most ${MAX_CONFIG_KEYS} keys`);
  const paths = items.map((item) => {
    const path = item.split('.');
    if (path.some((k) => k === '')) throw badRequest(`configKeys: ${JSON.stringify(item)} has an empty key`);
    if (path.length > MAX_PATH_KEYS) {
      throw badRequest(`configKeys: ${JSON.stringify(item)} has more than ${MAX_PATH_KEYS} keys`);
    }
    if (path.some((k) => k.includes('"') || k.includes('\\'))) {
      throw badRequest(`configKeys: ${JSON.stringify(item)}: keys with " or \\ cannot be selected`);
    }
    return path;
  });
  const within = (inner: string[], outer: string[]) =>
    outer.length <= inner.length && outer.every((k, i) => inner[i] === k);
  return paths.filter(
    (p, i) => !paths.some((q, j) => (q.length < p.length || (q.length === p.length && j < i)) && within(p, q)),
  );
}

interface KeyNode {
  text?: string;
  children: Map<string, KeyNode>;
}

/** The JSON text of a node: its value's text, or an object of its children that hold a value. */
function nodeText(node: KeyNode): string | undefined {
  if (node.text !== undefined) return node.text;
  const members: string[] = [];
  for (const [key, child] of node.children) {
    const text = nodeText(child);
    if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
  }
  return node.children.size === 0 || members.length > 0 ? `{${members.join(',')}}` : undefined;
}

/**
 * The JSON text of an object holding, nested as in the config, the value at each path whose
 * JSON text `texts` gives (same order; null = missing, left out). Paths come from parseConfigKeys.
 */
export function pickedConfigText(paths: readonly string[][], texts: readonly (string | null)[]): string {
  const root: KeyNode = { children: new Map() };
  paths.forEach((path, i) => {
    const text = texts[i];
    if (text === null || text === undefined) return;
    let node = root;
    for (const key of path) {
      let child = node.children.get(key);
      if (!child) node.children.set(key, (child = { children: new Map() }));
      node = child;
    }
    node.text = text;
  });
  return nodeText(root) ?? '{}';
}
