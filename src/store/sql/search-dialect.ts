/**
 * What run search needs from an engine beyond plain SQL: typed reads of JSON text columns
 * by key path, regex matching, a table of a JSON array's strings, ASCII case folding.
 * Each engine's module implements it (sqlite/sqlite-search.ts, postgres/postgres-search.ts).
 */
import type { SqlValue } from './sql-value.js';

/** A piece of SQL with its `?` parameters, in text order. */
export interface Frag {
  sql: string;
  params: SqlValue[];
}

/** Joins fragments with a separator, keeping parameters in text order. */
export function joinFrags(frags: readonly Frag[], separator: string): Frag {
  return { sql: frags.map((f) => f.sql).join(separator), params: frags.flatMap((f) => f.params) };
}

/**
 * JSON reads look up object keys only (never array indexes), so `a.0` means the key "0"
 * on every engine. Each read is NULL when the path is missing or holds another type.
 */
export interface SearchDialect {
  /** The number at `path` of a JSON text column, as a double, else NULL. */
  jsonNumber(column: string, path: readonly string[]): Frag;
  /** The string at `path`, else NULL. */
  jsonString(column: string, path: readonly string[]): Frag;
  /** 1 for true, 0 for false at `path`, else NULL. */
  jsonBoolean(column: string, path: readonly string[]): Frag;
  /** True when `path` holds JSON null. */
  jsonIsNull(column: string, path: readonly string[]): Frag;
  /** The JSON text of the value at `path` (any type, JSON null included), else NULL. */
  jsonText(column: string, path: readonly string[]): Frag;
  /** True when `path` holds any value, JSON null included. */
  jsonPresent(column: string, path: readonly string[]): Frag;
  /** True when the text matches a canonical pattern of domain/regex-dialect.ts anywhere. */
  regexMatch(subject: Frag, pattern: string): Frag;
  /** A FROM item `t` whose column `t.value` lists the strings of a JSON array text column. */
  arrayStrings(column: string): string;
  /** True when an integer column is in a JSON array text of integers. */
  inIdList(column: string, idsJson: string): Frag;
  /** True when `needle` (already ASCII lower case) occurs in the column, ASCII letters folded. */
  containsFolded(column: string, needle: string): Frag;
  /**
   * A condition true of every row, evaluated for each row a search scans, where an engine
   * without a statement timeout checks the statement's deadline (SQLite); undefined when
   * the engine needs none (PostgreSQL's statement_timeout).
   */
  rowGuard?(idColumn: string): string;
}
