/**
 * Compiles a run search filter (domain/run-search.ts) to one SQL condition over `runs r`,
 * the same text on every engine apart from the dialect's JSON, regex and substring pieces.
 * Every leaf is made two-valued (`IS TRUE`), so NOT is the exact complement of a leaf:
 * `$ne`, `$nin`, `$not` and `$exists: false` match runs where the field is missing too.
 */
import type { Condition, FilterNode, Operand, SearchField } from '../../../domain/run-search.js';
import type { Dialect } from '../db.js';
import type { SqlValue } from '../sql-value.js';
import { type Frag, joinFrags } from '../search-dialect.js';

const CMP = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
const TRUE: Frag = { sql: '1 = 1', params: [] };
const FALSE: Frag = { sql: '1 = 0', params: [] };

const frag = (sql: string, ...params: SqlValue[]): Frag => ({ sql, params });
const wrap = (f: Frag): Frag => ({ sql: `(${f.sql})`, params: f.params });
const any = (frags: Frag[]): Frag => (frags.length === 0 ? FALSE : wrap(joinFrags(frags, ' OR ')));

/** A scalar column or expression compared by value (text in code point order). */
function scalar(d: Dialect, expr: Frag, text: boolean, cond: Condition, nullWhen: Frag): Frag {
  const c = text ? ` ${d.binaryCollate}` : '';
  const eq = (v: Operand): Frag =>
    v === null
      ? nullWhen
      : typeof v === (text ? 'string' : 'number')
        ? frag(`${expr.sql} = ?`, ...expr.params, v as string | number)
        : FALSE;
  switch (cond.op) {
    case 'eq':
      return eq(cond.value);
    case 'in':
      return any(cond.values.map(eq));
    case 'regex':
      return text ? d.search.regexMatch(expr, cond.pattern) : FALSE;
    case 'exists':
      return nullWhen === FALSE ? TRUE : { sql: `NOT (${nullWhen.sql})`, params: nullWhen.params };
    default:
      return typeof cond.value === (text ? 'string' : 'number')
        ? frag(`${expr.sql}${c} ${CMP[cond.op]} ?`, ...expr.params, cond.value)
        : FALSE;
  }
}

/** A condition on a path of a JSON column: each operand compares with values of its own type. */
function json(d: Dialect, column: string, path: readonly string[], cond: Condition): Frag {
  const s = d.search;
  const col = `r.${column}`;
  const eq = (v: Operand): Frag => {
    if (v === null) {
      const isNull = s.jsonIsNull(col, path);
      const present = s.jsonPresent(col, path);
      return frag(`(${isNull.sql} OR NOT (${present.sql}))`, ...isNull.params, ...present.params);
    }
    if (typeof v === 'boolean') {
      const b = s.jsonBoolean(col, path);
      return frag(`${b.sql} = ?`, ...b.params, v ? 1 : 0);
    }
    const x = typeof v === 'number' ? s.jsonNumber(col, path) : s.jsonString(col, path);
    return frag(`${x.sql} = ?`, ...x.params, v);
  };
  switch (cond.op) {
    case 'eq':
      return eq(cond.value);
    case 'in':
      return any(cond.values.map(eq));
    case 'regex':
      return s.regexMatch(s.jsonString(col, path), cond.pattern);
    case 'exists':
      return s.jsonPresent(col, path);
    default: {
      const text = typeof cond.value === 'string';
      const x = text ? s.jsonString(col, path) : s.jsonNumber(col, path);
      return frag(`${x.sql}${text ? ` ${d.binaryCollate}` : ''} ${CMP[cond.op]} ?`, ...x.params, cond.value);
    }
  }
}

/** A condition on the run's tags: true when any tag satisfies it; `exists` = has a tag. */
function tags(d: Dialect, cond: Condition): Frag {
  const from = d.search.arrayStrings('r.tags');
  const noTags = frag(`NOT EXISTS (SELECT 1 FROM ${from})`);
  if (cond.op === 'exists') return frag(`EXISTS (SELECT 1 FROM ${from})`);
  const some = scalar(d, frag('t.value'), true, cond, FALSE);
  const onTag = frag(`EXISTS (SELECT 1 FROM ${from} WHERE ${some.sql})`, ...some.params);
  const wantsNone = cond.op === 'eq' ? cond.value === null : cond.op === 'in' && cond.values.includes(null);
  return wantsNone ? frag(`(${onTag.sql} OR ${noTags.sql})`, ...onTag.params) : onTag;
}

/** The creator's name as the run shows it: the display name, else the account name. */
const CREATOR_NAME = frag('(SELECT COALESCE(cx.display_name, cx.name) FROM users cx WHERE cx.id = r.created_by)');

/** A condition on the run's creator: numbers compare with the user id, strings with the user's name. */
function creator(d: Dialect, cond: Condition): Frag {
  const none = frag('r.created_by IS NULL');
  const one = (c: Condition): Frag => {
    const value = 'value' in c ? c.value : undefined;
    return typeof value === 'string' || c.op === 'regex'
      ? scalar(d, CREATOR_NAME, true, c, none)
      : scalar(d, frag('r.created_by'), false, c, none);
  };
  return cond.op === 'in' ? any(cond.values.map((value) => one({ op: 'eq', value }))) : one(cond);
}

function leaf(d: Dialect, field: SearchField, cond: Condition): Frag {
  switch (field.kind) {
    case 'status':
      return scalar(d, frag('r.status'), true, cond, FALSE);
    case 'name':
      return scalar(d, frag('r.name'), true, cond, FALSE);
    case 'tags':
      return tags(d, cond);
    case 'time':
      return scalar(d, frag(`r.${field.column}`), false, cond, frag(`r.${field.column} IS NULL`));
    case 'runId':
      return scalar(d, frag('r.id'), false, cond, FALSE);
    case 'forkParent':
      return scalar(d, frag('r.forked_from_run_id'), false, cond, frag('r.forked_from_run_id IS NULL'));
    case 'createdBy':
      return creator(d, cond);
    case 'json':
      return json(d, field.column, field.path, cond);
    case 'metric':
      throw new Error('metric conditions must be resolved to run ids before they reach the store');
  }
}

/** Nodes joined by AND or OR, in parentheses; `empty` when there are none. */
function junction(d: Dialect, nodes: readonly FilterNode[], op: string, empty: Frag): Frag {
  if (nodes.length === 0) return empty;
  return wrap(
    joinFrags(
      nodes.map((n) => compileFilter(d, n)),
      op,
    ),
  );
}

/** The filter as one SQL condition over `runs r` with its parameters, two-valued at every leaf. */
export function compileFilter(d: Dialect, node: FilterNode): Frag {
  switch (node.kind) {
    case 'and':
      return junction(d, node.nodes, ' AND ', TRUE);
    case 'or':
      return junction(d, node.nodes, ' OR ', FALSE);
    case 'not': {
      const inner = compileFilter(d, node.node);
      return { sql: `NOT (${inner.sql})`, params: inner.params };
    }
    case 'ids':
      return node.ids.length === 0 ? FALSE : d.search.inIdList('r.id', JSON.stringify(node.ids));
    case 'leaf': {
      const inner = leaf(d, node.field, node.cond);
      return { sql: `((${inner.sql}) IS TRUE)`, params: inner.params };
    }
  }
}
