import { badRequest } from '../errors.js';
import { isPlainObject } from './deep-merge.js';
import { hasLoneSurrogate, LONE_SURROGATE_RULE } from './unicode-text.js';

/** Deepest nesting of a stored JSON value (config, metadata, graphs, alerts). */
export const MAX_JSON_DEPTH = 100;

/** Why a string or key of a JSON value cannot be stored, or undefined. */
function textProblem(text: string, refuseNul: boolean): string | undefined {
  if (refuseNul && text.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  if (hasLoneSurrogate(text)) return `must not contain ${LONE_SURROGATE_RULE}`;
  return undefined;
}

/**
 * Returns why a JSON value cannot be stored, as the end of a sentence naming it, or
 * undefined when it can: nesting deeper than `maxDepth`, or a string or key holding a lone
 * surrogate, or with `refuseNul` U+0000 (PostgreSQL's JSON cannot hold it, so a stored
 * config holding one would fail every search over that config; data lines, stored as text,
 * keep it as U+FFFD instead). Walks level by level without recursion, so wide arrays cost
 * one pass.
 */
export function jsonValueProblem(value: unknown, maxDepth = MAX_JSON_DEPTH, refuseNul = false): string | undefined {
  let level: unknown[] = [value];
  for (let depth = 0; level.length > 0; depth++) {
    if (depth > maxDepth) return `nests deeper than ${maxDepth} levels`;
    const next: unknown[] = [];
    for (const v of level) {
      if (typeof v === 'string') {
        const problem = textProblem(v, refuseNul);
        if (problem !== undefined) return problem;
      } else if (v !== null && typeof v === 'object') {
        for (const [key, child] of Object.entries(v)) {
          const problem = textProblem(key, refuseNul);
          if (problem !== undefined) return problem;
          next.push(child);
        }
      }
    }
    level = next;
  }
  return undefined;
}

/** Throws BAD_REQUEST naming the field when a JSON value (config, metadata, graph) cannot be stored, U+0000 included. */
export function assertJsonValue(field: string, value: unknown): void {
  const problem = jsonValueProblem(value, MAX_JSON_DEPTH, true);
  if (problem !== undefined) throw badRequest(`${field} ${problem}`);
}

/**
 * Parses a JSON-encoded request field (config, systemMetadata, ...). Returns undefined for
 * absent, null for the "unset" spellings (null, "", "null"), else the parsed value.
 * Throws BAD_REQUEST naming the field when the text is not JSON or cannot be stored.
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
  assertJsonValue(field, value);
  return value;
}

/** A JSON-encoded field that must hold an object (or be unset). Throws BAD_REQUEST. */
export function parseObjectField(
  field: string,
  text: string | null | undefined,
): Record<string, unknown> | null | undefined {
  const value = parseJsonField(field, text);
  if (value === undefined || value === null || isPlainObject(value)) return value;
  throw badRequest(`${field} must encode a JSON object`);
}
