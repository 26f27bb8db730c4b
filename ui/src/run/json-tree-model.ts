/**
 * The pure part of the JSON tree: child entries, stable path keys, and which nodes a search
 * keeps visible. No React here.
 */
import type { Json } from '@server/api/schemas/json';

/** A JSON object or array: a node that can be expanded. */
export type JsonContainer = Json[] | { [key: string]: Json };

export const isContainer = (value: Json): value is JsonContainer => typeof value === 'object' && value !== null;

/** The children of a container in their own order: array indexes, object keys. */
export function entriesOf(value: JsonContainer): [string, Json][] {
  return Array.isArray(value) ? value.map((item, i) => [String(i), item]) : Object.entries(value);
}

/** A stable key for a node's position (the keys from the root, NUL-joined). */
export const childKey = (parent: string, key: string): string => (parent === '' ? key : `${parent}\u0000${key}`);

/** A leaf's text as shown and searched: strings in quotes, others as JSON. */
export const leafText = (value: Json): string => (typeof value === 'string' ? JSON.stringify(value) : String(value));

/** At most this many nodes are visited by one search (a huge config stays responsive). */
const SEARCH_BUDGET = 200_000;

/** What a search keeps: visible node keys, and the containers to open so every hit shows. */
export interface TreeSearch {
  visible: Set<string>;
  open: Set<string>;
  hits: number;
}

/**
 * Case-insensitive search of keys and leaf values. A node stays visible when it matches,
 * contains a match, or lies inside a container whose key matches; containers on the way to
 * a hit are opened.
 */
export function searchTree(root: JsonContainer, query: string): TreeSearch {
  const q = query.toLowerCase();
  const out: TreeSearch = { visible: new Set(), open: new Set(), hits: 0 };
  let budget = SEARCH_BUDGET;
  const addAll = (value: Json, key: string) => {
    if (--budget < 0) return;
    out.visible.add(key);
    if (isContainer(value)) for (const [k, v] of entriesOf(value)) addAll(v, childKey(key, k));
  };
  const visit = (value: Json, name: string, key: string): boolean => {
    if (--budget < 0) return false;
    const nameHit = name.toLowerCase().includes(q);
    if (!isContainer(value)) {
      const hit = nameHit || leafText(value).toLowerCase().includes(q);
      if (hit) {
        out.visible.add(key);
        out.hits += 1;
      }
      return hit;
    }
    if (nameHit) {
      out.hits += 1;
      addAll(value, key);
      return true;
    }
    let inside = false;
    for (const [k, v] of entriesOf(value)) if (visit(v, k, childKey(key, k))) inside = true;
    if (inside) {
      out.visible.add(key);
      out.open.add(key);
    }
    return inside;
  };
  for (const [k, v] of entriesOf(root)) visit(v, k, k);
  return out;
}
