import type { Json } from '@server/api/schemas/json';
import type { RunRow } from '@server/api/schemas/runs';

/** The SQID of a run from its `url` (the last path segment). */
export function sqidOf(url: string): string {
  let path = url;
  try {
    path = new URL(url, window.location.origin).pathname;
  } catch {
    // keep the text as it is
  }
  const last =
    path
      .split('/')
      .filter((s) => s !== '')
      .pop() ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/**
 * How long a run has taken in ms: to now while RUNNING, otherwise to its last update (the
 * list has no end time; `approximate` says so).
 */
export function runDuration(run: Pick<RunRow, 'status' | 'createdAt' | 'updatedAt'>, now: number) {
  const start = Date.parse(run.createdAt);
  if (run.status === 'RUNNING') return { ms: now - start, approximate: false };
  return { ms: Date.parse(run.updatedAt) - start, approximate: true };
}

const isObject = (v: unknown): v is Record<string, Json> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The value at a dotted config key; a `{value: x}` wrapper (as W&B-style configs store it)
 * reads as `x`, as the API's sort does.
 */
export function configValue(config: Json, key: string): Json | undefined {
  let node: Json | undefined = config;
  for (const part of key.split('.')) {
    if (!isObject(node) || !Object.hasOwn(node, part)) return undefined;
    node = node[part];
  }
  if (isObject(node) && Object.keys(node).length === 1 && Object.hasOwn(node, 'value')) return node.value;
  return node;
}

/** A config value as one short line of text. */
export function showConfigValue(value: Json | undefined): string {
  if (value === undefined || value === null) return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Dotted keys of a config's leaves (objects are walked 4 levels deep). */
export function configKeys(config: Json, into: Set<string>, prefix = '', depth = 0): void {
  if (!isObject(config)) return;
  for (const [key, value] of Object.entries(config)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const wrapped = isObject(value) && Object.keys(value).length === 1 && Object.hasOwn(value, 'value');
    if (isObject(value) && !wrapped && depth < 3 && Object.keys(value).length > 0) {
      configKeys(value, into, path, depth + 1);
    } else into.add(path);
  }
}
