/**
 * NDJSON bodies of the ingest routes (docs/api.md §8): one JSON object per line, blank lines
 * skipped but counted, and Python's bare NaN / Infinity / -Infinity tokens accepted.
 */
import { badRequest } from '../errors.js';
import { isPlainObject } from '../domain/deep-merge.js';

/** The string a bare `NaN` token parses to (JSON has no NaN); see toMetricValue. */
export const NAN_MARKER = '\u0000NaN';

/** One parsed line: its 1-based number in the body and its value (always a plain object). */
export interface NdjsonLine {
  lineNumber: number;
  value: Record<string, unknown>;
}

const NAN_LITERAL = JSON.stringify(NAN_MARKER);
const WORD_CHAR = /[A-Za-z0-9_$]/;

/** Returns the replacement for a NaN/Infinity token at `at`, or undefined when none starts there. */
function tokenAt(line: string, at: number): { length: number; text: string } | undefined {
  const before = line[at - 1];
  if (before !== undefined && WORD_CHAR.test(before)) return undefined;
  const word = line.startsWith('NaN', at) ? 'NaN' : line.startsWith('Infinity', at) ? 'Infinity' : '';
  const after = line[at + word.length];
  if (word === '' || (after !== undefined && WORD_CHAR.test(after))) return undefined;
  return { length: word.length, text: word === 'NaN' ? NAN_LITERAL : '1e999' };
}

/**
 * Returns the line with bare NaN and Infinity tokens outside JSON strings rewritten to
 * parseable JSON (`-Infinity` becomes `-1e999`); text inside strings is untouched.
 */
export function rewriteNonFinite(line: string): string {
  const parts: string[] = [];
  let copied = 0;
  let inString = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === 'N' || c === 'I') {
      const token = tokenAt(line, i);
      if (token === undefined) continue;
      parts.push(line.slice(copied, i), token.text);
      i += token.length - 1;
      copied = i + 1;
    }
  }
  parts.push(line.slice(copied));
  return parts.join('');
}

/** Parses one line: JSON.parse first, the NaN/Infinity rewrite only when that fails. */
function parseLine(line: string, lineNumber: number): unknown {
  try {
    return JSON.parse(line);
  } catch {
    const rewritten = rewriteNonFinite(line);
    try {
      if (rewritten !== line) return JSON.parse(rewritten);
    } catch {
      // reported below
    }
    throw badRequest(`line ${lineNumber}: not valid JSON`);
  }
}

/**
 * Yields each non-blank line of the body as a parsed plain object, in order, lazily (so a
 * caller validating as it goes reports the first bad line). Throws badRequest naming the
 * line when it is not valid JSON or not a JSON object. Lines end with `\n` or `\r\n`.
 */
export function* readNdjson(body: string): Generator<NdjsonLine, void, undefined> {
  let start = 0;
  for (let lineNumber = 1; start <= body.length; lineNumber++) {
    const newline = body.indexOf('\n', start);
    const end = newline < 0 ? body.length : newline;
    const line = body.slice(start, end > start && body[end - 1] === '\r' ? end - 1 : end);
    start = end + 1;
    if (line.trim() === '') continue;
    const value = parseLine(line, lineNumber);
    if (!isPlainObject(value)) throw badRequest(`line ${lineNumber}: expected a JSON object`);
    yield { lineNumber, value };
  }
}

/** Returns every non-blank line parsed (see readNdjson); throws badRequest on the first bad one. */
export function splitNdjson(body: string): NdjsonLine[] {
  return Array.from(readNdjson(body));
}

/**
 * Returns a metric value: a number as is (±Infinity included), NAN_MARKER as NaN, null as
 * null; undefined for anything else, meaning the value is invalid.
 */
export function toMetricValue(v: unknown): number | null | undefined {
  if (typeof v === 'number') return v;
  if (v === NAN_MARKER) return Number.NaN;
  if (v === null) return null;
  return undefined;
}
