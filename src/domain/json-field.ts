import { badRequest } from '../errors.js';

/**
 * Parses a JSON-encoded request field (config, systemMetadata, ...). Returns undefined for
 * absent, null for the "unset" spellings (null, "", "null"), else the parsed value.
 * Throws BAD_REQUEST naming the field when the text is not JSON.
 */
export function parseJsonField(field: string, text: string | null | undefined): unknown {
  if (text === undefined) return undefined;
  if (text === null || text === '' || text === 'null') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw badRequest(`${field} must be a JSON-encoded string; it is not valid JSON`);
  }
}
