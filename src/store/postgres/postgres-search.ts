/**
 * PostgreSQL's side of run search. JSON text columns are read as `json` (validated, not
 * converted like jsonb) with `->` per key, which looks up object keys only; regex is `~`
 * (ARE) on canonical patterns; lower() under COLLATE "C" folds ASCII letters only.
 */
import type { Frag, SearchDialect } from '../sql/search-dialect.js';

const at = (column: string, path: readonly string[]): Frag => ({
  sql: `CAST(${column} AS json)${path.map(() => ' -> CAST(? AS text)').join('')}`,
  params: [...path],
});

const twice = (x: Frag, sql: (x: string) => string): Frag => ({ sql: sql(x.sql), params: [...x.params, ...x.params] });

/** Run search's SQL for PostgreSQL. */
export const postgresSearch: SearchDialect = {
  jsonNumber: (c, path) =>
    twice(
      at(c, path),
      (x) => `CASE WHEN json_typeof(${x}) = 'number' THEN CAST(${x} #>> '{}' AS double precision) END`,
    ),
  jsonString: (c, path) => twice(at(c, path), (x) => `CASE WHEN json_typeof(${x}) = 'string' THEN ${x} #>> '{}' END`),
  jsonBoolean: (c, path) =>
    twice(
      at(c, path),
      (x) => `CASE WHEN json_typeof(${x}) = 'boolean' THEN CASE WHEN CAST(${x} AS text) = 'true' THEN 1 ELSE 0 END END`,
    ),
  jsonIsNull: (c, path) => {
    const x = at(c, path);
    return { sql: `json_typeof(${x.sql}) = 'null'`, params: x.params };
  },
  jsonText: (c, path) => {
    const x = at(c, path);
    return { sql: `CAST(${x.sql} AS text)`, params: x.params };
  },
  jsonPresent: (c, path) => {
    const x = at(c, path);
    return { sql: `${x.sql} IS NOT NULL`, params: x.params };
  },
  regexMatch: (subject, pattern) => ({ sql: `(${subject.sql}) ~ ?`, params: [...subject.params, pattern] }),
  arrayStrings: (c) => `json_array_elements_text(CAST(${c} AS json)) AS t(value)`,
  inIdList: (c, ids) => ({
    sql: `${c} IN (SELECT CAST(v AS bigint) FROM json_array_elements_text(CAST(? AS json)) AS ids(v))`,
    params: [ids],
  }),
  containsFolded: (c, needle) => ({ sql: `strpos(lower(${c} COLLATE "C"), ?) > 0`, params: [needle] }),
};
