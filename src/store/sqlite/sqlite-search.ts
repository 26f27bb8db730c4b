/**
 * SQLite's side of run search: JSON reads with json_type/json_extract, regex through the
 * `sw_regexp` function (RE2, linear time, registered on every connection), instr for
 * substrings (SQLite's lower() folds ASCII letters only, which is the rule everywhere).
 */
import type Database from 'better-sqlite3';
import { RE2JS } from 're2js';
import { queryTimeout } from '../../errors.js';
import type { Frag, SearchDialect } from '../sql/search-dialect.js';

/** `$."a"."b"`: a path of object keys (keys never hold `"`; the parser refuses them). */
const jsonPath = (path: readonly string[]): string => `$${path.map((k) => `."${k}"`).join('')}`;

const typed = (column: string, path: readonly string[], sql: (type: string, value: string) => string): Frag => {
  const p = jsonPath(path);
  return { sql: sql(`json_type(${column}, ?)`, `json_extract(${column}, ?)`), params: [p, p] };
};

/** Run search's SQL for SQLite. */
export const sqliteSearch: SearchDialect = {
  jsonNumber: (c, path) => typed(c, path, (t, v) => `CASE WHEN ${t} IN ('integer', 'real') THEN ${v} END`),
  jsonString: (c, path) => typed(c, path, (t, v) => `CASE WHEN ${t} = 'text' THEN ${v} END`),
  jsonBoolean: (c, path) => ({
    sql: `CASE json_type(${c}, ?) WHEN 'true' THEN 1 WHEN 'false' THEN 0 END`,
    params: [jsonPath(path)],
  }),
  jsonIsNull: (c, path) => ({ sql: `json_type(${c}, ?) = 'null'`, params: [jsonPath(path)] }),
  jsonText: (c, path) => ({ sql: `${c} -> ?`, params: [jsonPath(path)] }),
  jsonPresent: (c, path) => ({ sql: `json_type(${c}, ?) IS NOT NULL`, params: [jsonPath(path)] }),
  regexMatch: (subject, pattern) => ({ sql: `sw_regexp(?, ${subject.sql}) = 1`, params: [pattern, ...subject.params] }),
  arrayStrings: (c) => `json_each(${c}) AS t`,
  inIdList: (c, ids) => ({ sql: `${c} IN (SELECT value FROM json_each(?))`, params: [ids] }),
  containsFolded: (c, needle) => ({ sql: `instr(lower(${c}), ?) > 0`, params: [needle] }),
  rowGuard: (c) => `sw_alive(${c}) = 1`,
};

/**
 * The deadline of the statement a connection is running. This build of SQLite has no
 * progress callback, so the search functions check it: `sw_alive` once per scanned row and
 * `sw_regexp` before each match. Past the deadline they throw QUERY_TIMEOUT, which aborts
 * the statement (the connection stays usable).
 */
export class StatementDeadline {
  /** Epoch ms after which the running statement is stopped; 0 = none. */
  private at = 0;

  /** `timeoutMs` is what the QUERY_TIMEOUT message names. */
  constructor(private readonly timeoutMs: number) {}

  /** Runs fn (one synchronous statement) with the deadline `at` (epoch ms, 0 = none); clears it after. */
  run<T>(at: number, fn: () => T): T {
    this.at = at;
    try {
      this.check();
      return fn();
    } finally {
      this.at = 0;
    }
  }

  /** Throws QUERY_TIMEOUT when the running statement is past its deadline. */
  check(): void {
    if (this.at !== 0 && Date.now() > this.at) throw queryTimeout(this.timeoutMs);
  }
}

/** Compiled patterns, by canonical text (a query runs one pattern over many rows). */
const compiled = new Map<string, RE2JS>();

/** Whether a canonical pattern matches a text anywhere; `.` matches newlines too, as on PostgreSQL. */
export function re2Test(pattern: string, text: string): boolean {
  let re = compiled.get(pattern);
  if (!re) {
    if (compiled.size >= 256) compiled.clear();
    re = RE2JS.compile(pattern, RE2JS.DOTALL);
    compiled.set(pattern, re);
  }
  return re.test(text);
}

/**
 * Registers on a connection `sw_regexp(pattern, text)`: 1 when the text matches, 0 when it
 * does not or is not text (patterns come checked from domain/regex-dialect.ts), and
 * `sw_alive(id)`: always 1. Both throw QUERY_TIMEOUT past the connection's deadline.
 */
export function registerSearchFunctions(db: Database.Database, deadline: StatementDeadline): void {
  db.function('sw_regexp', { deterministic: true }, (pattern: unknown, text: unknown) => {
    deadline.check();
    return typeof pattern === 'string' && typeof text === 'string' && re2Test(pattern, text) ? 1 : 0;
  });
  // Not deterministic, so SQLite calls it for every row instead of once.
  db.function('sw_alive', { deterministic: false, varargs: true }, () => {
    deadline.check();
    return 1;
  });
}
