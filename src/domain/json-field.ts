import { badRequest } from '../errors.js';

/** Deepest nesting of a stored JSON value (config, metadata, graphs, alerts). */
export const MAX_JSON_DEPTH = 100;

/** Throws BAD_REQUEST naming the field when a value nests deeper than MAX_JSON_DEPTH. */
export function assertJsonDepth(field: string, value: unknown): void {
  let level: unknown[] = [value];
  for (let depth = 0; level.length > 0; depth++) {
    if (depth > MAX_JSON_DEPTH) throw badRequest(`${field} nests deeper than ${MAX_JSON_DEPTH} levels`);
    const next: unknown[] = [];
    for (const v of level) if (v !== null && typeof v === 'object') next.push(...Object.values(v));
    level = next;
  }
}

/**
 * Parses a JSON-encoded request field (config, systemMetadata, ...). Returns undefined for
 * absent, null for the "unset" spellings (null, "", "null"), else the parsed value.
 * Throws BAD_REQUEST naming the field when the text is not JSON or nests too deeply.
 */
export function parseJsonField(field: string, text: string | null | undefined): unknown {
  if (text === undefined) return undefined;
  if (text === null || text === '' || text === 'null') return null;
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    throw badRequest(`${field} must be a JSON-encoded string; it is not valid JSON`);
  }
  assertJsonDepth(field, value);
  return value;
}
