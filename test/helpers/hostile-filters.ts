/**
 * Hostile `filter` values for run search (GET /api/runs/list): filters past the bounds on
 * conditions, `$regex` conditions and pattern characters (refused with a 400 naming the
 * bound), and the widest, deepest and costliest filters within them (answered, never 5xx).
 * Used by the runs-list bounds test and by the generated hostile-input cases of `filter`.
 */
import type { InjectOptions } from 'fastify';
import type { RouteEntry } from '../../src/api/route-table.js';
import type { BadCase } from './hostile-inputs.js';
import type { Schema } from './route-requests.js';

export interface FilterShape {
  name: string;
  filter: unknown;
  /** A word the 400's sentence contains; undefined when the filter is within the bounds. */
  refused?: string;
}

const times = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));
const nestNot = (n: number, inner: unknown): unknown => (n === 0 ? inner : { $not: nestNot(n - 1, inner) });

/** The regex: a counted class then a letter the texts lack, so every run is scanned in full. */
export const slowRegex = (i: number): string => `[a-z]{${50 + (i % 50)}}Q`;

/** `{"$or": [n × {field: {$regex}}]}` with the patterns. */
export const regexOr = (n: number, field = 'name'): unknown => ({
  $or: times(n, (i) => ({ [field]: { $regex: slowRegex(i) } })),
});

/** `{"$or": [n × {"config.<missing key i>": {$exists: true}}]}`: every condition reads every config. */
export const existsOr = (n: number): unknown => ({
  $or: times(n, (i) => ({ [`config.missing${i}`]: { $exists: true } })),
});

/** The longest config path a field may name (32 keys). */
const LONG_PATH = `config.${times(32, () => 'k').join('.')}`;

export const FILTER_SHAPES: FilterShape[] = [
  { name: 'an $or of 1,001 empty objects', filter: { $or: times(1001, () => ({})) }, refused: '200 conditions' },
  { name: 'an $or of 201 empty objects', filter: { $or: times(201, () => ({})) }, refused: '200 conditions' },
  { name: 'an $or of 200 $regex conditions', filter: regexOr(200), refused: '20 $regex' },
  { name: 'an $or of 21 $regex conditions', filter: regexOr(21), refused: '20 $regex' },
  {
    name: '$regex patterns of 1,025 characters together',
    filter: {
      $and: [...times(4, () => ({ name: { $regex: 'a'.repeat(250) } })), { name: { $regex: 'b'.repeat(25) } }],
    },
    refused: '1024 characters',
  },
  { name: 'an $or of 20 $regex conditions', filter: regexOr(20) },
  { name: 'an $or of 200 empty objects', filter: { $or: times(200, () => ({})) } },
  { name: 'an $or of 200 $exists conditions', filter: existsOr(200) },
  {
    name: 'an $or of 200 conditions under 48 levels of $not',
    filter: nestNot(48, { $or: times(200, (i) => ({ 'config.a': { $in: [null, i] } })) }),
  },
  {
    name: 'an $or of $in conditions of 100 values on a 32-key config path, filling 20,000 characters',
    filter: { $or: times(60, () => ({ [LONG_PATH]: { $in: times(100, (i) => i % 10) } })) },
    refused: '500 comparisons',
  },
  {
    name: 'an $or of 5 $in conditions of 100 values on a 32-key config path',
    filter: { $or: times(5, () => ({ [LONG_PATH]: { $in: times(100, (i) => i % 10) } })) },
  },
  {
    name: 'an $or of 5 $in conditions of 100 nulls',
    filter: { $or: times(5, (i) => ({ [`config.k${i}`]: { $in: times(100, () => null) } })) },
  },
];

/** For a route whose query takes `filter` (run search): the valid request with each shape as its filter. */
export function filterCases(route: RouteEntry, req: InjectOptions): BadCase[] {
  const query = (route.schema as { querystring?: Schema } | undefined)?.querystring;
  if (!query?.properties?.filter) return [];
  const url = String(req.url);
  const base = url.replace(/([?&])filter=[^&]*&?/, '$1').replace(/[?&]$/, '');
  const joiner = base.includes('?') ? '&' : '?';
  return FILTER_SHAPES.map((s) => ({
    name: `?filter = ${s.name}`,
    req: { ...req, url: `${base}${joiner}filter=${encodeURIComponent(JSON.stringify(s.filter))}` },
    mustReject: s.refused !== undefined,
  }));
}
