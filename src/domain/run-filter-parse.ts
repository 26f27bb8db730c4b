/**
 * Parses the `filter` parameter of run search: JSON in the MongoDB style the W&B and pluto
 * clients send. `$and`/`$or` take arrays of filters, `$not` a filter; any other key is a
 * field with a plain value (equality) or an object of operators ($eq $ne $gt $gte $lt $lte
 * $in $nin $regex (+ $options "i") $exists $not); several keys in one object are AND-ed.
 */
import { badRequest } from '../errors.js';
import { canonicalRegex } from './regex-dialect.js';
import { resolveField } from './run-fields.js';
import type { Condition, FilterNode, Operand, SearchField } from './run-search.js';

/** Deepest nesting of the filter's JSON. */
export const MAX_FILTER_DEPTH = 50;
/** Most conditions in one filter: field conditions, and empty objects `{}` (each matches every run). */
export const MAX_FILTER_CONDITIONS = 200;
/** Most comparisons in one filter: a condition makes one, an $in or $nin one per value. */
export const MAX_FILTER_COMPARISONS = 500;
/** Most `$regex` conditions in one filter: each runs over the text of every run of the project. */
export const MAX_FILTER_REGEXES = 20;
/** Most characters of all `$regex` patterns of one filter together. */
export const MAX_FILTER_PATTERN_CHARS = 1024;
/** Most values of one $in or $nin. */
export const MAX_IN_VALUES = 100;

const RANGE = { $gt: 'gt', $gte: 'gte', $lt: 'lt', $lte: 'lte' } as const;
const OPERATORS = '$eq, $ne, $gt, $gte, $lt, $lte, $in, $nin, $regex, $options, $exists, $not';
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const show = (v: unknown) => JSON.stringify(v)?.slice(0, 80) ?? String(v);

/** Epoch ms of an ISO-8601 date or date-time (UTC when no offset is given), or undefined. */
function isoMs(text: string): number | undefined {
  const m = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/.exec(text);
  if (!m) return undefined;
  const ms = Date.parse(m[1] !== undefined && m[4] === undefined ? `${text}Z` : text);
  return Number.isNaN(ms) ? undefined : ms;
}

/** An operand checked against the field's kind (times become epoch ms, statuses upper case). */
function operand(field: SearchField, name: string, v: unknown, range: boolean): Operand {
  const where = `${name}: ${show(v)}`;
  if (v === null && !range) return null;
  switch (field.kind) {
    case 'status':
    case 'name':
    case 'tags':
      if (typeof v !== 'string') throw badRequest(`${where}: ${name} compares with strings`);
      return field.kind === 'status' ? v.toUpperCase() : v;
    case 'time': {
      const ms = typeof v === 'string' ? isoMs(v) : typeof v === 'number' && Number.isSafeInteger(v) ? v : undefined;
      if (ms === undefined || Math.abs(ms) > 8.64e15) {
        throw badRequest(`${where}: ${name} compares with ISO-8601 strings or integer epoch milliseconds`);
      }
      return ms;
    }
    case 'metric':
      if (typeof v !== 'number' || !Number.isFinite(v)) throw badRequest(`${where}: ${name} compares with numbers`);
      return v;
    case 'runId':
    case 'forkParent':
      if (typeof v !== 'number' || !Number.isSafeInteger(v))
        throw badRequest(`${where}: ${name} compares with run ids`);
      return v;
    case 'createdBy':
      if (typeof v === 'string' || (typeof v === 'number' && Number.isSafeInteger(v))) return v;
      throw badRequest(`${where}: ${name} compares with a user id (integer) or a user name (string)`);
    case 'json':
      if (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) return v;
      if (typeof v === 'boolean' && !range) return v;
      throw badRequest(`${where}: ${range ? 'ranges compare numbers or strings' : 'values must be scalars'}`);
  }
}

class FilterParser {
  private conditions = 0;
  private comparisons = 0;
  private regexes = 0;
  private patternChars = 0;

  node(v: unknown, depth: number, where: string): FilterNode {
    if (depth > MAX_FILTER_DEPTH) throw badRequest(`filter nests deeper than ${MAX_FILTER_DEPTH} levels`);
    if (!isObject(v)) throw badRequest(`${where} must be a JSON object; got ${show(v)}`);
    // `{}` matches every run; it is a condition too, so a wide $or of them stays bounded.
    if (Object.keys(v).length === 0) this.count();
    const nodes = Object.entries(v).map(([key, value]): FilterNode => {
      if (key === '$and' || key === '$or') {
        if (!Array.isArray(value) || value.length === 0) throw badRequest(`${key} takes a non-empty array of filters`);
        const kids = value.map((x, i) => this.node(x, depth + 1, `${key}[${i}]`));
        return { kind: key === '$and' ? 'and' : 'or', nodes: kids };
      }
      if (key === '$not') return { kind: 'not', node: this.node(value, depth + 1, '$not') };
      if (key.startsWith('$')) throw badRequest(`unknown operator ${show(key)}; combine filters with $and, $or, $not`);
      return this.field(key, value, depth + 1);
    });
    return nodes.length === 1 ? nodes[0]! : { kind: 'and', nodes };
  }

  private field(name: string, value: unknown, depth: number): FilterNode {
    const field = resolveField(name);
    if (Array.isArray(value)) throw badRequest(`${name}: arrays cannot be compared; use $in`);
    if (!isObject(value)) return this.leaf(field, { op: 'eq', value: operand(field, name, value, false) });
    return this.operators(field, name, value, depth);
  }

  /** Counts one condition of `comparisons` comparisons; throws past either bound. */
  private count(comparisons = 1): void {
    if (++this.conditions > MAX_FILTER_CONDITIONS) {
      throw badRequest(`filter has more than ${MAX_FILTER_CONDITIONS} conditions (an empty object {} counts as one)`);
    }
    this.comparisons += comparisons;
    if (this.comparisons > MAX_FILTER_COMPARISONS) {
      throw badRequest(
        `filter makes more than ${MAX_FILTER_COMPARISONS} comparisons (each value of $in or $nin counts as one)`,
      );
    }
  }

  private leaf(field: SearchField, cond: Condition): FilterNode {
    this.count(cond.op === 'in' ? Math.max(1, cond.values.length) : 1);
    return { kind: 'leaf', field, cond };
  }

  private operators(field: SearchField, name: string, ops: Record<string, unknown>, depth: number): FilterNode {
    if (depth > MAX_FILTER_DEPTH) throw badRequest(`filter nests deeper than ${MAX_FILTER_DEPTH} levels`);
    const keys = Object.keys(ops);
    if (keys.length === 0 || keys.some((k) => !k.startsWith('$'))) {
      throw badRequest(`${name}: objects cannot be compared; give a value or an object of operators (${OPERATORS})`);
    }
    if ('$options' in ops && !('$regex' in ops)) throw badRequest(`${name}: $options goes with $regex`);
    const nodes = keys
      .filter((k) => k !== '$options')
      .map((op): FilterNode => {
        const v = ops[op];
        const list = (): Operand[] => {
          if (!Array.isArray(v) || v.length > MAX_IN_VALUES) {
            throw badRequest(`${name}: ${op} takes an array of at most ${MAX_IN_VALUES} values`);
          }
          return v.map((x: unknown) => operand(field, name, x, false));
        };
        switch (op) {
          case '$eq':
            return this.leaf(field, { op: 'eq', value: operand(field, name, v, false) });
          case '$ne':
            return { kind: 'not', node: this.leaf(field, { op: 'eq', value: operand(field, name, v, false) }) };
          case '$gt':
          case '$gte':
          case '$lt':
          case '$lte':
            return this.leaf(field, { op: RANGE[op], value: operand(field, name, v, true) as number | string });
          case '$in':
            return this.leaf(field, { op: 'in', values: list() });
          case '$nin':
            return { kind: 'not', node: this.leaf(field, { op: 'in', values: list() }) };
          case '$exists':
            if (typeof v !== 'boolean') throw badRequest(`${name}: $exists takes true or false`);
            return v ? this.leaf(field, { op: 'exists' }) : { kind: 'not', node: this.leaf(field, { op: 'exists' }) };
          case '$regex':
            return this.leaf(field, { op: 'regex', pattern: this.regex(field, name, v, ops.$options) });
          case '$not':
            if (!isObject(v)) throw badRequest(`${name}: $not takes an object of operators`);
            return { kind: 'not', node: this.operators(field, name, v, depth + 1) };
          default:
            throw badRequest(`${name}: unknown operator ${show(op)}; operators are ${OPERATORS}`);
        }
      });
    return nodes.length === 1 ? nodes[0]! : { kind: 'and', nodes };
  }

  private regex(field: SearchField, name: string, pattern: unknown, options: unknown): string {
    if (field.kind === 'time' || field.kind === 'metric' || field.kind === 'forkParent' || field.kind === 'runId')
      throw badRequest(`${name}: $regex applies to text fields`);
    if (typeof pattern !== 'string') throw badRequest(`${name}: $regex takes a string`);
    if (++this.regexes > MAX_FILTER_REGEXES) {
      throw badRequest(`filter has more than ${MAX_FILTER_REGEXES} $regex conditions; combine patterns with |`);
    }
    this.patternChars += [...pattern].length;
    if (this.patternChars > MAX_FILTER_PATTERN_CHARS) {
      throw badRequest(
        `the $regex patterns of a filter are longer than ${MAX_FILTER_PATTERN_CHARS} characters together`,
      );
    }
    if (options !== undefined && (typeof options !== 'string' || !/^i?$/.test(options))) {
      throw badRequest(`${name}: $options accepts only "i" (ASCII case-insensitive)`);
    }
    return canonicalRegex(pattern, options === 'i' || field.kind === 'status');
  }
}

/**
 * The filter tree of a `filter` parameter (undefined or empty → undefined). Throws
 * BAD_REQUEST naming the problem: not JSON, not an object, unknown field or operator,
 * wrong operand, bad regex, deeper than 50 levels, more than 200 conditions (`{}` counts),
 * more than 500 comparisons ($in values count one each), more than 20 $regex conditions
 * or 1,024 pattern characters in all.
 */
export function parseFilter(text: string | undefined): FilterNode | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest('filter is not valid JSON');
  }
  return new FilterParser().node(value, 0, 'filter');
}
