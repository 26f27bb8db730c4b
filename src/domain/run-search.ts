/**
 * The run search language after parsing: fields, conditions, the boolean tree, the sort.
 * Parsed from the MongoDB-style JSON that the W&B and pluto clients send
 * (domain/run-filter-parse.ts); compiled to SQL by store/sql/runs/run-filter.ts.
 */

/** A time column of a run (epoch ms). `last_seen_at` is the heartbeat: the run's last sign of life. */
export type TimeColumn = 'created_at' | 'updated_at' | 'last_seen_at';

/** A JSON column of a run searched by key path. */
export type JsonColumn = 'config' | 'system_metadata';

/** Which of a metric's summaries a condition or sort reads: its last finite value, or min, max or mean of its finite values. */
export type MetricAgg = 'last' | 'min' | 'max' | 'mean';

/**
 * What a condition or a sort looks at. `runId` is the run's own id (never null); `forkParent`
 * is the id of the run a run was forked from (null when none); `createdBy` is the user who created the run (null when none): a number
 * compares with the user's id, a string with the user's display name.
 */
export type SearchField =
  | { kind: 'status' }
  | { kind: 'name' }
  | { kind: 'tags' }
  | { kind: 'time'; column: TimeColumn }
  | { kind: 'runId' }
  | { kind: 'forkParent' }
  | { kind: 'createdBy' }
  | { kind: 'json'; column: JsonColumn; path: readonly string[] }
  | { kind: 'metric'; name: string; agg: MetricAgg };

/** A value a condition compares with. */
export type Operand = string | number | boolean | null;

/**
 * One test of a field's value. `eq null` matches a missing or JSON-null value; range tests
 * only compare a number with a number and a string with a string (code point order);
 * `regex` holds a pattern already checked and rewritten by domain/regex-dialect.ts.
 * Negative operators ($ne, $nin, $exists: false, $not) are `not` nodes around these.
 */
export type Condition =
  | { op: 'eq'; value: Operand }
  | { op: 'gt' | 'gte' | 'lt' | 'lte'; value: number | string }
  | { op: 'in'; values: readonly Operand[] }
  | { op: 'regex'; pattern: string }
  | { op: 'exists' };

/**
 * A filter: and/or/not over leaves. `ids` is a leaf already resolved to the runs it matches
 * (metric conditions, whose values live in the series store, are resolved this way).
 */
export type FilterNode =
  | { kind: 'and'; nodes: readonly FilterNode[] }
  | { kind: 'or'; nodes: readonly FilterNode[] }
  | { kind: 'not'; node: FilterNode }
  | { kind: 'leaf'; field: SearchField; cond: Condition }
  | { kind: 'ids'; ids: readonly number[] };

/** A sort: a field (never tags, createdBy or runId) and its direction. Ties go by run id in the same direction. */
export interface SearchSort {
  field: Exclude<SearchField, { kind: 'tags' | 'createdBy' | 'runId' }>;
  descending: boolean;
}
