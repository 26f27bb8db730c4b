/**
 * Deep merge of JSON values for config and logger settings (docs/api.md §3.6): nested objects
 * merge, arrays, scalars and null replace. Safe against `__proto__` keys from JSON.parse.
 */
import { badRequest } from '../errors.js';

/**
 * Returns true for objects whose prototype is Object.prototype or null (what JSON.parse and
 * object literals make); false for arrays, null, class instances, Dates and Maps.
 */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** Own-property read, so `__proto__` or `constructor` never reach the prototype chain. */
const own = (o: Record<string, unknown>, key: string): unknown => (Object.hasOwn(o, key) ? o[key] : undefined);

/** Defines a plain data property; assignment would treat `__proto__` as the prototype setter. */
const put = (o: Record<string, unknown>, key: string, value: unknown): void => {
  Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
};

/** Deeper merges are refused instead of overflowing the stack. */
export const MAX_MERGE_DEPTH = 1000;

/**
 * Returns `patch` merged over `base` as a new object when both are plain objects (patch keys
 * win, nested plain objects merge recursively); otherwise returns `patch` itself.
 * Never mutates its inputs; untouched sub-objects are shared with them, not copied.
 * Throws badRequest when objects nested on both sides go deeper than MAX_MERGE_DEPTH.
 */
export function deepMerge(base: unknown, patch: unknown): unknown {
  return mergeAt(base, patch, 0);
}

function mergeAt(base: unknown, patch: unknown, depth: number): unknown {
  if (!isPlainObject(base) || !isPlainObject(patch)) return patch;
  if (depth >= MAX_MERGE_DEPTH) {
    throw badRequest(`objects nested deeper than ${MAX_MERGE_DEPTH} levels cannot be merged`);
  }
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(base)) put(result, key, own(base, key));
  for (const key of Object.keys(patch)) {
    const next = own(patch, key);
    const merged = Object.hasOwn(base, key) ? mergeAt(own(base, key), next, depth + 1) : next;
    put(result, key, merged);
  }
  return result;
}
