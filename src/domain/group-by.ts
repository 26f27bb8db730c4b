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

const KEY_PART = /^[^.]{1,256}$/;

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
    `groupBy field ${JSON.stringify(name)} is not one of config.<dotted key>, systemMetadata.<dotted key>, status, group`,
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
