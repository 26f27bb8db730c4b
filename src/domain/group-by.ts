/**
 * The fields runs can be grouped by (GET /api/runs/groups): `config.<dotted key>`,
 * `systemMetadata.<dotted key>`, `status`, or `group` (the value of a `group:<name>` tag).
 */
import { badRequest } from '../errors.js';

/** One checked group field: its name as asked, and where its value is read. */
export type GroupField =
  { name: string; kind: 'config' | 'systemMetadata'; path: string[] } | { name: string; kind: 'status' | 'group' };

/** Most fields one grouping may name. */
export const MAX_GROUP_FIELDS = 3;

/** One key of a dotted path: no dot, no `"` or `\\` (the database's JSON paths cannot hold them). */
const KEY_PART = /^[^."\\]{1,256}$/;

/** One field, checked; throws BAD_REQUEST naming it when it is not one of the groupable fields. */
function parseField(name: string): GroupField {
  if (name === 'status' || name === 'group') return { name, kind: name };
  const dot = name.indexOf('.');
  const head = dot < 0 ? name : name.slice(0, dot);
  if ((head === 'config' || head === 'systemMetadata') && dot > 0) {
    const path = name.slice(dot + 1).split('.');
    if (path.every((p) => KEY_PART.test(p))) return { name, kind: head, path };
  }
  throw badRequest(
    `groupBy field ${JSON.stringify(name)} is not one of config.<dotted key>, systemMetadata.<dotted key>, ` +
      'status, group (keys may not hold " or \\)',
  );
}

/**
 * The fields of a comma-separated `groupBy` (items trimmed, empty items dropped), in order.
 * Throws BAD_REQUEST when it names none, more than MAX_GROUP_FIELDS, one twice, or a bad field.
 */
export function parseGroupBy(text: string): GroupField[] {
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (names.length === 0) throw badRequest('groupBy must name at least one field');
  if (names.length > MAX_GROUP_FIELDS) throw badRequest(`groupBy may name at most ${MAX_GROUP_FIELDS} fields`);
  if (new Set(names).size !== names.length) throw badRequest('groupBy names a field twice');
  return names.map(parseField);
}

/** A group field's value: a JSON scalar, an object or array as its JSON text, null when the run has none. */
export type GroupValue = number | string | boolean | null;

/** The group value of a JSON text at a path (null: missing, or JSON null). */
export function groupValueOf(text: string | null): GroupValue {
  if (text === null) return null;
  const v = JSON.parse(text) as unknown;
  if (v === null || typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
  return JSON.stringify(v);
}

/** The value of a run's `group:<name>` tag (its first one), or null. */
export function groupTagOf(tags: readonly string[]): string | null {
  const tag = tags.find((t) => t.startsWith('group:'));
  return tag === undefined ? null : tag.slice('group:'.length);
}

const RANK = { number: 0, string: 1, boolean: 2 } as const;

/** Orders values: numbers ascending, then strings (code point order), then false, true; null last. */
export function compareGroupValues(a: GroupValue, b: GroupValue): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  const ra = RANK[typeof a as keyof typeof RANK];
  const rb = RANK[typeof b as keyof typeof RANK];
  if (ra !== rb) return ra - rb;
  if (typeof a === 'string') {
    const sa = a;
    const sb = b as string;
    return sa === sb ? 0 : compareCodePointStrings(sa, sb);
  }
  return a === b ? 0 : a < b ? -1 : 1;
}

/** Code point order of two strings (UTF-16 order differs past the BMP). */
function compareCodePointStrings(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done || y.done) return x.done && y.done ? 0 : x.done ? -1 : 1;
    const cx = x.value.codePointAt(0)!;
    const cy = y.value.codePointAt(0)!;
    if (cx !== cy) return cx - cy;
  }
}

/** Orders keys (one value per field) field by field. */
export function compareGroupKeys(a: readonly GroupValue[], b: readonly GroupValue[]): number {
  for (let i = 0; i < a.length; i++) {
    const c = compareGroupValues(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  return 0;
}
