/**
 * Generated bad inputs for a route, derived from its schema and a valid request: broken
 * bodies, wrong types, huge and fractional numbers, 10 MB strings, deep nesting, wide
 * arrays, unknown enum values, traversal, NUL, CR/LF, lone surrogates, bidirectional
 * controls, names with surrounding whitespace or over 255 bytes, and invalid UTF-8. Each case says whether the server
 * must refuse it (a 4xx) or may accept it; it must never answer 5xx.
 */
import type { InjectOptions } from 'fastify';
import type { RouteEntry } from '../../src/api/route-table.js';
import type { Schema } from './route-requests.js';

export interface BadCase {
  name: string;
  req: InjectOptions;
  mustReject: boolean;
}

const MB = 1024 * 1024;
const nest = (depth: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
};

/** Wide, flat arrays: a recursion per element overflows the stack long before 200 000. */
const WIDE = Array.from({ length: 200_000 }, (_, i) => i);

/** Replacement values for one field: [label, value, whether it is bad whatever the schema says]. */
export const FIELD_VALUES: [string, unknown, boolean][] = [
  ['a string', 'abc', false],
  ['a number', 12345, false],
  ['a fraction', 1.5, false],
  ['a negative number', -1, false],
  ['a huge number', 1e300, false],
  ['2^64', 2 ** 64, false],
  ['an object', { a: 1 }, false],
  ['an array', [1, 2], false],
  ['a boolean', true, false],
  ['null', null, false],
  ['an empty string', '', false],
  ['a NUL byte', 'a\u0000b', false],
  ['CR LF header injection', 'a\r\nX-Injected: 1', false],
  ['path traversal', '../../../etc/passwd', false],
  ['a lone surrogate', '\ud800', false],
  ['a name with surrounding whitespace', '  spaced name  ', false],
  ['a 300-byte name', '\u00e9'.repeat(150), false],
  ['a bidirectional control', 'a\u202eb', false],
  ['2^53 - 1', Number.MAX_SAFE_INTEGER, false],
  ['an array of 200 000 numbers', WIDE, false],
  ['JSON text of an array of 200 000 numbers', JSON.stringify(WIDE), false],
  ['an unknown enum value', 'BOGUS_VALUE', false],
  ['JSON text nested 200 deep', JSON.stringify(nest(200)), false],
  ['an object nested 1000 deep', nest(1000), false],
  ['a 9 MB string', 'x'.repeat(9 * MB), false],
  ['a 10 MB string', 'y'.repeat(10 * MB), true],
];

/** True when the schema certainly refuses the value (no union member, enum or bound allows it). */
export function schemaRejects(s: Schema, v: unknown): boolean {
  if (s.anyOf) return s.anyOf.every((x) => schemaRejects(x, v));
  if (s.enum) return !s.enum.includes(v);
  const n = typeof v === 'number' ? v : NaN;
  const outside = (x: number) =>
    (s.minimum !== undefined && x < s.minimum) || (s.maximum !== undefined && x > s.maximum);
  switch (s.type) {
    case 'integer':
      return !Number.isInteger(n) || outside(n);
    case 'number':
      return typeof v !== 'number' || outside(n);
    case 'string':
      return (
        typeof v !== 'string' || (s.maxLength !== undefined && v.length > s.maxLength) || v.length < (s.minLength ?? 0)
      );
    case 'boolean':
      return typeof v !== 'boolean';
    case 'array':
      return !Array.isArray(v);
    case 'object':
      return typeof v !== 'object' || v === null || Array.isArray(v);
    case 'null':
      return v !== null;
    default:
      return false;
  }
}

/** How deep a JSON value nests (a scalar is 0). */
function depthOf(v: unknown): number {
  if (v === null || typeof v !== 'object') return 0;
  let deepest = 0;
  for (const child of Object.values(v)) deepest = Math.max(deepest, depthOf(child));
  return 1 + deepest;
}

function jsonTooDeepOrInvalid(v: unknown): boolean {
  if (typeof v !== 'string') return depthOf(v) > 100;
  if (v === '' || v === 'null') return false;
  try {
    return depthOf(JSON.parse(v)) > 100;
  } catch {
    return true;
  }
}

/** Names a person reads (project and key names) must not hold bidirectional controls. */
const READ_NAMES = new Set(['projectName', 'name']);
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * JSON-encoded fields must be JSON nesting at most 100 levels; file names cannot leave their
 * run; project and key names hold no bidirectional controls.
 */
const JSON_FIELDS = new Set(['config', 'statusMetadata', 'loggerSettings', 'systemMetadata', 'alert']);
/* eslint-disable no-control-regex -- file names with control characters are what is probed */
const domainRejects = (field: string, v: unknown): boolean =>
  (JSON_FIELDS.has(field) && jsonTooDeepOrInvalid(v)) ||
  (field === 'fileName' && typeof v === 'string' && /[/\\\u0000-\u001f\u007f]|^\.\.?$/.test(v)) ||
  (field === 'logName' && typeof v === 'string' && /[\u0000-\u001f\u007f]|(^|[/\\])\.\.?([/\\]|$)/.test(v)) ||
  (READ_NAMES.has(field) && typeof v === 'string' && BIDI.test(v));
/* eslint-enable no-control-regex */

/** Bodies that are not a JSON object in valid UTF-8 JSON, for any route taking JSON. */
const BROKEN_BODIES: [string, string | Buffer][] = [
  ['truncated JSON', '{"runId":'],
  ['trailing garbage', '{"runId":1} x'],
  ['single quotes', "{'runId':1}"],
  ['an empty body', ''],
  ['JSON null', 'null'],
  ['a JSON array', '[]'],
  ['a JSON string', '"x"'],
  ['a bare NaN', 'NaN'],
  ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
  ['a raw NUL byte', Buffer.from('{"runId":1,\u0000}')],
  ['arrays nested 100 000 deep', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
  ['an 11 MB body', `{"x":"${'z'.repeat(11 * MB)}"}`],
];

const withBody = (req: InjectOptions, payload: string | Buffer, contentType = 'application/json'): InjectOptions => ({
  ...req,
  payload,
  headers: { ...(req.headers as Record<string, string>), 'content-type': contentType },
});

/** Broken bodies and wrong content types for a route that takes a JSON body (or any POST). */
export function bodyCases(req: InjectOptions): BadCase[] {
  const cases = BROKEN_BODIES.map(([name, payload]) => ({ name, req: withBody(req, payload), mustReject: true }));
  const valid = typeof req.payload === 'string' ? req.payload : '{}';
  cases.push({ name: 'a text/plain body', req: withBody(req, valid, 'text/plain'), mustReject: true });
  cases.push({
    name: 'a multipart body',
    req: withBody(req, valid, 'multipart/form-data; boundary=x'),
    mustReject: true,
  });
  return cases;
}

/** Each body property, in turn, replaced by each hostile value. */
export function bodyFieldCases(route: RouteEntry, req: InjectOptions): BadCase[] {
  const schema = (route.schema as { body?: Schema } | undefined)?.body;
  if (!schema?.properties || typeof req.payload !== 'string') return [];
  const valid = JSON.parse(req.payload) as Record<string, unknown>;
  const cases: BadCase[] = [];
  for (const [field, prop] of Object.entries(schema.properties)) {
    for (const [label, value, bad] of FIELD_VALUES) {
      const body = { ...valid, [field]: value };
      const mustReject = bad || schemaRejects(prop, value) || domainRejects(field, value);
      cases.push({ name: `${field} = ${label}`, req: withBody(req, JSON.stringify(body)), mustReject });
    }
    if (prop.type === 'array' && prop.items?.properties) cases.push(...itemCases(field, prop.items, valid, req));
  }
  return cases;
}

/** For an array of objects (POST /files): each property of its first item replaced. */
function itemCases(field: string, items: Schema, valid: Record<string, unknown>, req: InjectOptions): BadCase[] {
  const first = ((valid[field] as Record<string, unknown>[] | undefined) ?? [{}])[0] ?? {};
  const cases: BadCase[] = [];
  for (const [key, prop] of Object.entries(items.properties ?? {})) {
    for (const [label, value, bad] of FIELD_VALUES) {
      const body = { ...valid, [field]: [{ ...first, [key]: value }] };
      const mustReject = bad || schemaRejects(prop, value) || domainRejects(key, value);
      cases.push({ name: `${field}[0].${key} = ${label}`, req: withBody(req, JSON.stringify(body)), mustReject });
    }
  }
  return cases;
}
